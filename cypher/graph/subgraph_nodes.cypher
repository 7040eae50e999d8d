// The memories, entities and decisions of a scope subtree that existed at $as_of (null: now), within the caller's scopes, without embeddings.
// mode: read
CALL () {
  MATCH (m:Memory)
  WHERE ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
    AND ($as_of IS NULL OR m.created_at <= $as_of)
  RETURN m AS n, 'memory' AS kind
  UNION
  MATCH (e:Entity)
  WHERE ($scope IS NULL OR e.scope = $scope OR e.scope STARTS WITH $scope_prefix)
    AND ($as_of IS NULL OR e.created_at IS NULL OR e.created_at <= $as_of)
  RETURN e AS n, 'entity' AS kind
  UNION
  MATCH (d:Decision)
  WHERE ($scope IS NULL OR d.scope = $scope OR d.scope STARTS WITH $scope_prefix)
    AND ($as_of IS NULL OR d.recorded_at IS NULL OR d.recorded_at <= $as_of)
  RETURN d AS n, 'decision' AS kind
}
WITH n, kind
WHERE n.id IS NOT NULL
  AND ($allowed IS NULL OR any(s IN $allowed WHERE n.scope = s OR n.scope STARTS WITH s + '/'))
RETURN kind, n {.*, embedding: null, name_embedding: null} AS props
LIMIT $limit
