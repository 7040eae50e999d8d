// Delete every memory matching all the given filters (a null filter matches everything), with their forward triggers; each scope they leave takes a new revision (recall's vector cache drops them).
// mode: write
MATCH (m:Memory)
WHERE ($ids IS NULL OR m.id IN $ids)
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($categories IS NULL OR any(c IN m.categories WHERE c IN $categories))
  AND ($older_than IS NULL OR m.occurred_at < $older_than)
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
