// For each row, the most similar active memory in the same scope at or above a score (dedup).
// mode: read
UNWIND $rows AS row
CALL db.index.vector.queryNodes('memory_embedding', $k, row.embedding) YIELD node, score
WITH row, node, score
WHERE node.scope = row.scope AND node.status = 'active' AND score >= $min_score
WITH row, node, score
ORDER BY score DESC
WITH row, collect({id: node.id, score: score, strength: node.strength,
                   last_accessed_at: node.last_accessed_at,
                   spaced_access_count: node.spaced_access_count})[0] AS best
RETURN row.index AS index, best
