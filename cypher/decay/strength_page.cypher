// D1: one page (ids after $after) of active memories not yet faded to the $floor (they change no more) with what their strength now depends on: the strength at their last use, when that was (entering this graph counts as a use, so an import of old memories starts fresh), spaced uses, pin, C1 fade, and what the last decay pass wrote (times as epoch seconds and microseconds: the driver's DateTimes cost ~0.1 ms each).
// mode: read
MATCH (m:Memory)
WHERE m.id > $after AND m.status = 'active' AND coalesce(m.decayed_strength, 1.0) > $floor
WITH m ORDER BY m.id LIMIT $page
WITH m, coalesce(m.last_accessed_at, m.created_at, m.occurred_at) AS used
RETURN m.id AS id, m.strength AS strength,
       used.epochSeconds AS used_s, used.microsecond AS used_us,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.pinned, false) AS pinned,
       coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_s, m.consolidated_at.microsecond AS faded_us,
       m.decayed_strength AS decayed
