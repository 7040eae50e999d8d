// For each row, the active memories of the same scope at or above a similarity, most similar first.
// mode: read
UNWIND $rows AS row
CALL db.index.vector.queryNodes('memory_embedding', $k, row.embedding) YIELD node, score
WITH row, node, score
WHERE node.scope = row.scope AND node.status = 'active' AND score >= $min_score
WITH row, node, score
ORDER BY score DESC
RETURN row.index AS index,
       collect({id: node.id, text: node.text, score: score, occurred_at: node.occurred_at,
                strength: node.strength, confidence: node.confidence,
                last_accessed_at: node.last_accessed_at,
                spaced_access_count: node.spaced_access_count,
                labile_until: node.labile_until,
                metadata_json: node.metadata_json}) AS neighbours
