// Reinforce memories that were seen again (a near-duplicate write or a retrieval).
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
SET m.strength = row.strength,
    m.decayed_strength = null,
    m.last_accessed_at = row.accessed_at,
    m.access_count = coalesce(m.access_count, 0) + 1,
    m.spaced_access_count = row.spaced_access_count
RETURN row.index AS index, m {.*, embedding: null} AS memory
