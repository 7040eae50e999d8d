// What consolidation needs of each memory: text, vector, fields, the active derived memory it already feeds, its entities (occurred_at as epoch seconds and microseconds: the driver's DateTimes cost ~0.1 ms each).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
OPTIONAL MATCH (d:Memory)-[:DERIVED_FROM]->(m)
  WHERE d.layer = $derived_layer AND d.status = 'active' AND coalesce(d.kind, 'cluster') = $derived_kind
WITH m, collect(d.id)[0] AS derived_by
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
RETURN m.id AS id, m.scope AS scope, m.layer AS layer, m.text AS text, m.status AS status,
       m.categories AS categories, m.importance AS importance, m.confidence AS confidence,
       m.strength AS strength,
       m.occurred_at.epochSeconds AS occurred_s, m.occurred_at.microsecond AS occurred_us, coalesce(m.pinned, false) AS pinned,
       m.source AS source, derived_by, collect(DISTINCT e.name) AS entities
