// Delete one memory and its edges.
// mode: write
MATCH (m:Memory {id: $id})
DETACH DELETE m
RETURN count(*) AS deleted
