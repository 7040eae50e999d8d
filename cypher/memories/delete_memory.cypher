// Delete one memory and its edges (and its forward triggers).
// mode: write
MATCH (m:Memory {id: $id})
CALL (m) {
  OPTIONAL MATCH (m)<-[:ABOUT]-(t:FutureTrigger)
  DETACH DELETE t
}
DETACH DELETE m
RETURN count(*) AS deleted
