// Delete one memory and its edges.
// mode: write
MATCH (m:Memory {id: $id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
DETACH DELETE m
RETURN count(*) AS deleted
