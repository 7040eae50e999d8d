// The vectors of the given memories.
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m.id AS id, m.embedding AS embedding
