// For each memory, its nearest memories of the same scope, layer and $status at or above $min_score (vector index, k per memory).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
CALL db.index.vector.queryNodes('memory_embedding', $candidates, m.embedding) YIELD node, score
WITH m, node, score
WHERE node <> m AND node.scope = m.scope AND node.layer = m.layer AND node.status = $status
  AND score >= $min_score
WITH m, node, score
ORDER BY score DESC
WITH m, collect({id: node.id, score: score})[..$k] AS neighbours
RETURN m.id AS id, neighbours
