// Merge each row's entity on (scope, key), graphiti's property names included, and link the memory to it.
// mode: write
UNWIND $rows AS row
MERGE (e:Entity {scope: row.scope, key: row.key})
  ON CREATE SET e.id = row.entity_id,
                e.uuid = row.entity_id,
                e.group_id = row.group_id,
                e.name = row.name,
                e.name_embedding = row.name_embedding,
                e.summary = '',
                e.created_at = row.seen_at
SET e.kind = coalesce(e.kind, row.kind)
WITH e, row
MATCH (m:Memory {id: row.memory_id})
MERGE (m)-[r:MENTIONS]->(e)
  ON CREATE SET r.created_at = row.seen_at
RETURN count(r) AS linked
