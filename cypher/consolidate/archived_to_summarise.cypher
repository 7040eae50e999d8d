// C4: archived memories of one layer that no insight summarises yet, in pages by id.
// mode: read
MATCH (m:Memory)
WHERE m.status = 'archived' AND m.layer = $layer AND m.id > $after
  AND NOT EXISTS { MATCH (i:Memory {kind: 'insight'})-[:DERIVED_FROM]->(m) WHERE i.status = 'active' }
RETURN m.id AS id, m.scope AS scope
ORDER BY m.id
LIMIT $page
