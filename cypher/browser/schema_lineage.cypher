// What a schema memory (the one with id $id, or every schema in $scope when $id is null) was derived from, down to the episodes.
// mode: read
MATCH (top:Memory)
WHERE CASE
        WHEN $id IS NULL THEN top:SchemaMemory
          AND ($scope = '/' OR top.scope = $scope
               OR (top.scope STARTS WITH $scope AND substring(top.scope, size($scope), 1) = '/'))
        ELSE top.id = $id
      END
WITH top
ORDER BY top.created_at DESC
LIMIT toInteger($limit)
MATCH lineage = (top)-[:DERIVED_FROM*1..10]->(:EpisodicMemory)
RETURN top, collect(lineage) AS lineage
