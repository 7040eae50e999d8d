// D1: one page (ids after $after) of active memories not yet faded to the $floor (they change no more) with what their strength now depends on: the strength at their last use, when that was (entering this graph counts as a use, so an import of old memories starts fresh), spaced uses, pin, C1 fade, and what the last decay pass wrote.
// mode: read
MATCH (m:Memory)
WHERE m.id > $after AND m.status = 'active' AND coalesce(m.decayed_strength, 1.0) > $floor
WITH m ORDER BY m.id LIMIT $page
RETURN m.id AS id, m.strength AS strength,
       coalesce(m.last_accessed_at, m.created_at, m.occurred_at) AS used,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.pinned, false) AS pinned,
       coalesce(m.fade, 1.0) AS fade, m.consolidated_at AS faded_at,
       m.decayed_strength AS decayed
