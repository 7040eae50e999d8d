// The entities of a scope subtree with how many memories mention each, most mentioned first.
// mode: read
MATCH (e:Entity)
WHERE $scope IS NULL OR e.scope = $scope OR e.scope STARTS WITH $scope_prefix
OPTIONAL MATCH (m:Memory)-[:MENTIONS]->(e)
WITH e, count(m) AS mentions
RETURN coalesce(e.id, e.uuid) AS id,
       e.name AS name,
       e.scope AS scope,
       e.kind AS kind,
       coalesce(e.summary, '') AS summary,
       e.group_id AS group_id,
       mentions
ORDER BY mentions DESC, name
LIMIT $limit
