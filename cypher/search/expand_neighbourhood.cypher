// Graph neighbourhood of recall seeds (NEXT and DERIVED_FROM, both ways), under the search filters.
// mode: read
UNWIND $seeds AS seed
MATCH (s:Memory {id: seed})
CALL {
  WITH s
  MATCH (s)-[r:NEXT|DERIVED_FROM]-(n:Memory)
  RETURN n, type(r) AS via
}
WITH seed, n, via
WHERE n.status IN $statuses
  AND ($scope IS NULL OR n.scope = $scope OR n.scope STARTS WITH $scope_prefix)
  AND ($layers IS NULL OR n.layer IN $layers)
  AND n.strength >= $min_strength
RETURN seed, via, n.id AS id
