// C4: archived, unpinned memories with no access since $cutoff move to cold storage.
// mode: write
MATCH (m:Memory)
WHERE m.status = 'archived' AND NOT coalesce(m.pinned, false)
  AND coalesce(m.last_accessed_at, m.created_at) < $cutoff
SET m.status = 'cold', m.cold_at = $now
RETURN count(m) AS cold
