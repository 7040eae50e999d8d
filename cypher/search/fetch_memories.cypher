// The full records of the memories a recall returns, in one round trip.
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m {.*, embedding: null} AS memory
