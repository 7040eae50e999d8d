// C4: active, unpinned memories not accessed since $cutoff (the shortest TTL), with what their D1 strength depends on; Python applies each category's TTL and the strength.
// mode: read
MATCH (m:Memory)
WHERE m.status = 'active' AND NOT coalesce(m.pinned, false)
  AND coalesce(m.last_accessed_at, m.created_at) < $cutoff
RETURN m.id AS id, m.scope AS scope, m.categories AS categories,
       coalesce(m.last_accessed_at, m.created_at) AS last_used,
       coalesce(m.strength, 1.0) AS strength, coalesce(m.spaced_access_count, 0) AS spaced,
       coalesce(m.fade, 1.0) AS fade, m.consolidated_at AS faded_at
ORDER BY m.id
