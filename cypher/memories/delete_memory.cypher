// Delete one memory and its edges (and its forward triggers).
// mode: write
MATCH (m:Memory {id: $id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
CALL (m) {
  OPTIONAL MATCH (m)<-[:ABOUT]-(t:FutureTrigger)
  DETACH DELETE t
}
DETACH DELETE m
RETURN count(*) AS deleted
