// For each memory, its nearest memories of the same scope, layer and $status at or above $min_score (vector index, k per memory); with $history also those superseded by a later statement (not merged or refined restatements).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
CALL db.index.vector.queryNodes('memory_embedding', $candidates, m.embedding) YIELD node, score
WITH m, node, score
WHERE node <> m AND node.scope = m.scope AND node.layer = m.layer
  AND (node.status = $status OR ($history AND node.status = 'superseded'
       AND NOT EXISTS { MATCH (:Memory)-[r:SUPERSEDES]->(node) WHERE r.reason IN ['merged', 'refined'] }))
  AND score >= $min_score
WITH m, node, score
ORDER BY score DESC
WITH m, collect({id: node.id, score: score})[..$k] AS neighbours
RETURN m.id AS id, neighbours
