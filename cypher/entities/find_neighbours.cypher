// Memories of a scope subtree that mention entities the given memories mention, most shared entities first.
// mode: read
MATCH (m:Memory)-[:MENTIONS]->(e:Entity)<-[:MENTIONS]-(other:Memory)
WHERE m.id IN $memory_ids
  AND NOT other.id IN $memory_ids
  AND other.status IN $statuses
  AND ($scope IS NULL OR other.scope = $scope OR other.scope STARTS WITH $scope_prefix)
WITH other, collect(DISTINCT e.name) AS entities
RETURN other.id AS id, entities, size(entities) AS shared
ORDER BY shared DESC, other.occurred_at DESC
LIMIT $limit
