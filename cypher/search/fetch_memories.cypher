// The full records of the memories a recall returns, in one round trip.
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
RETURN m {.*, embedding: null} AS memory
