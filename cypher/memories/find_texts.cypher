// The texts of some memories (for judging which ones an answer used).
// mode: read
MATCH (m:Memory)
WHERE m.id IN $ids
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
RETURN m.id AS id, m.text AS text
