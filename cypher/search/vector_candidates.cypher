// Approximate nearest memories to a query vector, with scope/layer/status filters in the query.
// mode: read
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node AS m, score
WHERE m.status IN $statuses
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($layers IS NULL OR m.layer IN $layers)
  AND m.strength >= $min_strength
RETURN m.id AS id, score
ORDER BY score DESC
LIMIT $limit
