// The texts of some memories (for judging which ones an answer used).
// mode: read
MATCH (m:Memory)
WHERE m.id IN $ids
RETURN m.id AS id, m.text AS text
