// A scope's newest memories with the entities they mention, the decisions recorded in them and their belief edges.
// mode: read
MATCH (m:Memory)
WHERE $scope = '/' OR m.scope = $scope
   OR (m.scope STARTS WITH $scope AND substring(m.scope, size($scope), 1) = '/')
WITH m
ORDER BY m.created_at DESC
LIMIT toInteger($limit)
RETURN m AS memory,
       [path = (m)-[:MENTIONS]->(:Entity) | path] AS mentions,
       [path = (:Decision)-[:RECORDED_IN]->(m) | path] AS decisions,
       [path = (m)-[:SUPERSEDES|CONTRADICTS|DERIVED_FROM]->(:Memory) | path] AS beliefs
