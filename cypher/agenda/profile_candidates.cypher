// W13: current memories of a scope subtree that may enter the core profile (not lessons), within the caller's scopes, most important and strongest first.
// mode: read
MATCH (m:Memory)
WHERE m.status = 'active'
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($allowed IS NULL OR any(s IN $allowed WHERE m.scope = s OR m.scope STARTS WITH s + '/'))
  AND any(c IN m.categories WHERE c IN $categories)
  AND NOT any(c IN m.categories WHERE c IN $excluded)
RETURN m.id AS id, m.text AS text, m.categories AS categories
ORDER BY m.importance * m.strength DESC, m.occurred_at DESC
LIMIT $limit
