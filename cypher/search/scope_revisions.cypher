// The revision of every scope in a subtree (ScopeLock.revision, which each write of a memory there raises), for recall's in-process vector cache: a scope whose revision it does not know has changed.
// mode: read
MATCH (l:ScopeLock)
WHERE (l.scope = $scope OR l.scope STARTS WITH $scope_prefix)
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE l.scope = ok OR l.scope STARTS WITH ok + '/'))
RETURN l.scope AS scope, coalesce(l.revision, 0) AS revision
