// For each row, the active memories of the same scope at or above a similarity, most similar first: an exact scan of a scope of at most $exact_below memories (the ANN index ranks the whole graph before the scope filter, so a small scope's own memories can fall out of its top k), the vector index for larger scopes.
// mode: read
UNWIND $rows AS row
WITH row WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE row.scope = ok OR row.scope STARTS WITH ok + '/'))
CALL {
  WITH row
  WITH row, COUNT { MATCH (m:Memory) WHERE m.scope = row.scope } AS size
  CALL {
    WITH row, size
    WITH row, size WHERE size <= $exact_below
    MATCH (node:Memory) WHERE node.scope = row.scope AND node.status = 'active'
    RETURN node, vector.similarity.cosine(node.embedding, row.embedding) AS score
    UNION
    WITH row, size
    WITH row, size WHERE size > $exact_below
    CALL db.index.vector.queryNodes('memory_embedding', $ann_k, row.embedding) YIELD node, score
    WITH row, node, score WHERE node.scope = row.scope AND node.status = 'active'
    RETURN node, score
  }
  WITH node, score WHERE score >= $min_score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
WITH row, node, score
ORDER BY score DESC
RETURN row.index AS index,
       collect({id: node.id, text: node.text, score: score, occurred_at: node.occurred_at,
                strength: node.strength, confidence: node.confidence,
                last_accessed_at: node.last_accessed_at,
                spaced_access_count: node.spaced_access_count,
                labile_until: node.labile_until,
                metadata_json: node.metadata_json}) AS neighbours
