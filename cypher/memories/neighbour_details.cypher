// What the write path reads of similar stored memories found in process (scope_embeddings): the same fields find_similar returns, by id.
// mode: read
UNWIND $ids AS id
MATCH (node:Memory {id: id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE node.scope = ok OR node.scope STARTS WITH ok + '/'))
RETURN {id: node.id, text: node.text, occurred_at: node.occurred_at, strength: node.strength,
        confidence: node.confidence, last_accessed_at: node.last_accessed_at,
        spaced_access_count: node.spaced_access_count, labile_until: node.labile_until,
        metadata_json: node.metadata_json} AS node
