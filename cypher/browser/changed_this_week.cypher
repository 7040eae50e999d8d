// Memories of a scope created or superseded in the last 7 days, with the memories that superseded them.
// mode: read
MATCH (m:Memory)
WHERE ($scope = '/' OR m.scope = $scope
       OR (m.scope STARTS WITH $scope AND substring(m.scope, size($scope), 1) = '/'))
  AND (m.created_at >= datetime() - duration('P7D') OR m.superseded_at >= datetime() - duration('P7D'))
WITH m
ORDER BY coalesce(m.superseded_at, m.created_at) DESC
LIMIT toInteger($limit)
RETURN m AS memory,
       [path = (:Memory)-[:SUPERSEDES]->(m) | path] AS superseded_by,
       [path = (m)-[:SUPERSEDES]->(:Memory) | path] AS supersedes
