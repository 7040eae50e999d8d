// C4: active, unpinned memories not accessed since $cutoff (the shortest TTL); Python applies each category's TTL.
// mode: read
MATCH (m:Memory)
WHERE m.status = 'active' AND NOT coalesce(m.pinned, false)
  AND coalesce(m.last_accessed_at, m.created_at) < $cutoff
RETURN m.id AS id, m.scope AS scope, m.categories AS categories,
       coalesce(m.last_accessed_at, m.created_at) AS last_used
ORDER BY m.id
