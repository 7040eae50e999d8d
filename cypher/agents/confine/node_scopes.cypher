// The scope markers (scope, graphiti group_id) of nodes by element id, to confine an agent's rows to its scopes.
// mode: read
MATCH (n)
WHERE elementId(n) IN $element_ids
RETURN elementId(n) AS element_id, n.scope AS scope, n.group_id AS group_id
