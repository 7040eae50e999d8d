// Every memory of a scope subtree with its embedding and text (recall's in-process vector cache loads a subtree at once; read the revisions first).
// mode: read
MATCH (m:Memory)
WHERE (m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
RETURN m.id AS id, m.scope AS scope, m.embedding AS embedding, m.text AS text
