// The entities new mentions of each scope may resolve to: graphmem's by scope, graphiti's (no scope yet) by group id.
// mode: read
UNWIND $scopes AS s
CALL (s) {
  MATCH (e:Entity)
  WHERE e.scope = s.scope OR (e.scope IS NULL AND e.group_id = s.group_id)
  RETURN e
  ORDER BY e.created_at DESC
  LIMIT $limit
}
RETURN s.scope AS scope,
       coalesce(e.id, e.uuid) AS id,
       e.key AS key,
       e.name AS name,
       e.kind AS kind,
       e.name_embedding AS name_embedding
