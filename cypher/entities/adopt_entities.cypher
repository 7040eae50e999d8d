// Give entities graphiti created a scope, key and id, so graphmem's MERGE on (scope, key) finds them.
// mode: write
UNWIND $rows AS row
MATCH (e:Entity {uuid: row.id})
WHERE e.key IS NULL
SET e.scope = row.scope,
    e.key = row.key,
    e.id = coalesce(e.id, e.uuid)
RETURN count(e) AS adopted
