// What a semantic or schema memory was distilled from: the memories below it on DERIVED_FROM edges, nearest first.
// mode: read
MATCH (m:Memory {id: $memory_id})
WHERE (m:SemanticMemory OR m:SchemaMemory OR m.layer IN ['semantic', 'schema'])
  AND any(s IN $scopes WHERE s = '/' OR m.scope = s OR m.scope STARTS WITH s + '/')
MATCH path = (m)-[:DERIVED_FROM*1..5]->(source:Memory)
WHERE any(s IN $scopes WHERE s = '/' OR source.scope = s OR source.scope STARTS WITH s + '/')
WITH m, source, min(length(path)) AS depth
RETURN m AS derived, source AS memory, depth
ORDER BY depth, source.occurred_at DESC
LIMIT $limit
