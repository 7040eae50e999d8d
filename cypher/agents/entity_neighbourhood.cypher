// An entity's neighbourhood: each active memory that mentions it (newest first) and the other entities that memory mentions.
// mode: read
MATCH (e:Entity)
WHERE (toLower(e.name) = toLower(trim($name)) OR e.key = toLower(trim($name)))
  AND any(s IN $scopes WHERE s = '/' OR e.scope = s OR e.scope STARTS WITH s + '/')
MATCH (m:Memory)-[:MENTIONS]->(e)
WHERE m.status = 'active'
  AND any(s IN $scopes WHERE s = '/' OR m.scope = s OR m.scope STARTS WITH s + '/')
OPTIONAL MATCH (m)-[:MENTIONS]->(other:Entity)
WHERE other <> e
  AND any(s IN $scopes WHERE s = '/' OR other.scope = s OR other.scope STARTS WITH s + '/')
WITH e, m, collect(DISTINCT other) AS also_mentions
RETURN e AS entity, m AS memory, also_mentions
ORDER BY m.occurred_at DESC
LIMIT $limit
