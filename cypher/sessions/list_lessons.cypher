// Active instruction memories (lessons) of a scope subtree, most important and strongest first.
// mode: read
MATCH (m:Memory)
WHERE m.status = 'active'
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND (m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND 'instruction' IN m.categories
  AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
RETURN m {.*, embedding: null} AS memory
ORDER BY m.importance DESC, m.strength DESC, m.occurred_at DESC
LIMIT $limit
