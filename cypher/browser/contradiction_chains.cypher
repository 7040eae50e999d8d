// Chains of beliefs and decisions that replaced or contradicted one another in a scope, newest chain first.
// mode: read
MATCH (head)
WHERE (head:Memory OR head:Decision)
  AND ($scope = '/' OR head.scope = $scope
       OR (head.scope STARTS WITH $scope AND substring(head.scope, size($scope), 1) = '/'))
  AND NOT EXISTS { MATCH ()-[:SUPERSEDES]->(head) }
  AND EXISTS { MATCH (head)-[:SUPERSEDES|CONTRADICTS]->() }
WITH head
ORDER BY coalesce(head.created_at, head.recorded_at) DESC
LIMIT toInteger($limit)
MATCH chain = (head)-[:SUPERSEDES|CONTRADICTS*1..20]->(older)
RETURN head, collect(chain) AS chains
