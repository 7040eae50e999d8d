// The records of a recall's candidate pool in one round trip (the properties callers see, named: `m {.*}` would read every embedding too), each with its DERIVED_FROM sources and the memories it CONTRADICTS among the pool, and whether it is extractive (an offline copy of a source).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
RETURN m {.id, .text, .layer, .scope, .importance, .confidence, .strength, .status, .created_at,
          .occurred_at, .last_accessed_at, .updated_at, .source, .metadata_json,
          categories: coalesce(m.categories, []), access_count: coalesce(m.access_count, 0),
          pinned: coalesce(m.pinned, false)} AS memory,
       coalesce(m.extractive, false) AS extractive,
       [(m)-[:DERIVED_FROM]->(s:Memory) WHERE s.id IN $ids | s.id] AS sources,
       [(m)-[:CONTRADICTS]->(b:Memory) WHERE b.id IN $ids | b.id] AS contradicts
