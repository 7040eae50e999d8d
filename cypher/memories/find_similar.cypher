// For each row, the active memories of the same scope at or above a similarity, most similar first, from the vector index: for scopes too large for the exact scan done in process (store/similar.py reads smaller scopes with scope_embeddings). The index ranks the whole graph before the scope filter, so it is asked for $ann_k to leave the scope's own enough.
// mode: read
UNWIND $rows AS row
WITH row WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE row.scope = ok OR row.scope STARTS WITH ok + '/'))
CALL {
  WITH row
  CALL db.index.vector.queryNodes('memory_embedding', $ann_k, row.embedding) YIELD node, score
  WITH node, score WHERE node.scope = row.scope AND node.status = 'active' AND score >= $min_score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
WITH row, node, score
ORDER BY score DESC
RETURN row.index AS index,
       collect({id: node.id, text: node.text, score: score, occurred_at: CASE WHEN node.occurred_at IS NULL THEN null ELSE [node.occurred_at.epochSeconds, node.occurred_at.nanosecond, node.occurred_at.offsetSeconds] END,
                strength: node.strength, confidence: node.confidence,
                last_accessed_at: CASE WHEN node.last_accessed_at IS NULL THEN null ELSE [node.last_accessed_at.epochSeconds, node.last_accessed_at.nanosecond, node.last_accessed_at.offsetSeconds] END,
                spaced_access_count: node.spaced_access_count,
                labile_until: CASE WHEN node.labile_until IS NULL THEN null ELSE [node.labile_until.epochSeconds, node.labile_until.nanosecond, node.labile_until.offsetSeconds] END,
                metadata_json: node.metadata_json, embedding: node.embedding}) AS neighbours
