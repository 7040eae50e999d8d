// R8: how many memories each scope of a subtree holds, by layer and status, within the caller's scopes.
// mode: read
MATCH (m:Memory)
WHERE m.scope IS NOT NULL
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($allowed IS NULL OR any(s IN $allowed WHERE m.scope = s OR m.scope STARTS WITH s + '/'))
RETURN m.scope AS scope, coalesce(m.layer, 'unknown') AS layer, coalesce(m.status, 'unknown') AS status,
       count(*) AS n
