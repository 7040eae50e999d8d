// What ties memories into topics besides their vectors: their scope and text (words), when each happened (epoch seconds and microseconds: the driver's DateTimes cost ~0.1 ms each), the entities it mentions (but not the memories' owner, $owner_keys) with how many memories of its scope, layer and $status mention each (rarity; with $history the superseded count too), and the memories that follow it in its episode (NEXT); and, so that C1 reads each memory once, what it needs of a topic's members: their fields, the names of all they mention, and the active derived memory of $derived_layer and $derived_kind each already feeds.
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WHERE NOT e.key IN $owner_keys
WITH m, e,
     CASE WHEN e IS NULL THEN 0
          ELSE COUNT { MATCH (e)<-[:MENTIONS]-(o:Memory)
                       WHERE o.scope = m.scope AND o.layer = m.layer
                         AND (o.status = $status OR ($history AND o.status = 'superseded')) }
     END AS mentions
WITH m, collect(CASE WHEN e IS NULL THEN null ELSE {key: coalesce(e.id, elementId(e)), mentions: mentions} END) AS entities
RETURN m.id AS id, m.scope AS scope, m.text AS text,
       m.occurred_at.epochSeconds AS occurred_s, m.occurred_at.microsecond AS occurred_us, entities,
       [(m)-[:NEXT]->(n:Memory) WHERE (n.status = $status OR ($history AND n.status = 'superseded')) AND n.scope = m.scope | n.id] AS next,
       m.layer AS layer, m.status AS status, m.categories AS categories, m.importance AS importance,
       m.confidence AS confidence, m.strength AS strength, coalesce(m.pinned, false) AS pinned,
       COLLECT { MATCH (d:Memory)-[:DERIVED_FROM]->(m)
                 WHERE d.layer = $derived_layer AND d.status = 'active' AND coalesce(d.kind, 'cluster') = $derived_kind
                 RETURN d.id }[0] AS derived_by,
       COLLECT { MATCH (m)-[:MENTIONS]->(x:Entity) RETURN DISTINCT x.name AS name } AS names
