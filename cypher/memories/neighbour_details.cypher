// What the write path reads of similar stored memories found in process (scope_embeddings): the same fields find_similar returns, by id (its times as [epoch seconds, nanosecond, offset]: read by store/memories.py _neighbour).
// mode: read
UNWIND $ids AS id
MATCH (node:Memory {id: id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE node.scope = ok OR node.scope STARTS WITH ok + '/'))
RETURN {id: node.id, text: node.text, occurred_at: CASE WHEN node.occurred_at IS NULL THEN null ELSE [node.occurred_at.epochSeconds, node.occurred_at.nanosecond, node.occurred_at.offsetSeconds] END, strength: node.strength,
        confidence: node.confidence, last_accessed_at: CASE WHEN node.last_accessed_at IS NULL THEN null ELSE [node.last_accessed_at.epochSeconds, node.last_accessed_at.nanosecond, node.last_accessed_at.offsetSeconds] END,
        spaced_access_count: node.spaced_access_count, labile_until: CASE WHEN node.labile_until IS NULL THEN null ELSE [node.labile_until.epochSeconds, node.labile_until.nanosecond, node.labile_until.offsetSeconds] END,
        metadata_json: node.metadata_json} AS node
