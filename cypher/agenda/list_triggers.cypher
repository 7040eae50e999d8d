// W10: forward triggers due between $due_from and $due_to (null: open) about current memories of a scope subtree, within the caller's scopes, soonest first.
// mode: read
MATCH (t:FutureTrigger)-[:ABOUT]->(m:Memory)
WHERE ($due_from IS NULL OR t.due_on >= $due_from)
  AND ($due_to IS NULL OR t.due_on <= $due_to)
  AND m.status = 'active'
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($allowed IS NULL OR any(s IN $allowed WHERE m.scope = s OR m.scope STARTS WITH s + '/'))
RETURN t {.id, .due_on, .created_at, scope: m.scope} AS trigger, m {.*, embedding: null} AS memory
ORDER BY t.due_on, m.importance DESC, m.occurred_at DESC
LIMIT $limit
