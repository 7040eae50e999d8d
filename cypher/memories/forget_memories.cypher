// Delete every memory matching all the given filters (a null filter matches everything), with their forward triggers.
// mode: write
MATCH (m:Memory)
WHERE ($ids IS NULL OR m.id IN $ids)
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($categories IS NULL OR any(c IN m.categories WHERE c IN $categories))
  AND ($older_than IS NULL OR m.occurred_at < $older_than)
CALL (m) {
  OPTIONAL MATCH (m)<-[:ABOUT]-(t:FutureTrigger)
  DETACH DELETE t
}
DETACH DELETE m
RETURN count(*) AS deleted
