// Delete one memory and its edges (and its forward triggers); its scope takes a new revision (recall's vector cache drops the memory).
// mode: write
MATCH (m:Memory {id: $id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
WITH m, m.scope AS scope
CALL (m) {
  OPTIONAL MATCH (m)<-[:ABOUT]-(t:FutureTrigger)
  DETACH DELETE t
}
DETACH DELETE m
WITH scope, count(*) AS deleted
MERGE (l:ScopeLock {scope: scope})
SET l.revision = coalesce(l.revision, 0) + 1
RETURN sum(deleted) AS deleted
