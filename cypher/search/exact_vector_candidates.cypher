// Exact nearest memories inside a scope (used when the scope is too small for the ANN index to reach).
// mode: read
MATCH (m:Memory)
WHERE (m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND m.status IN $statuses
  AND ($layers IS NULL OR m.layer IN $layers)
  AND m.strength >= $min_strength
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $limit
RETURN m.id AS id, score
