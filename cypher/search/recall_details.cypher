// The records of a recall's candidate pool in one round trip (the properties callers see, named: `m {.*}` would read every embedding too; times as [epoch seconds, nanosecond, offset] since the driver's own DateTime values cost more to decode than the rest of the recall), each with its DERIVED_FROM sources and the memories it CONTRADICTS among the pool, and whether it is extractive (an offline copy of a source).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
RETURN m {.id, .text, .layer, .scope, .importance, .confidence, .strength, .status, .source, .metadata_json,
          categories: coalesce(m.categories, []), access_count: coalesce(m.access_count, 0),
          pinned: coalesce(m.pinned, false)} AS memory,
       [t IN [m.created_at, m.occurred_at, m.last_accessed_at, m.updated_at] |
         CASE WHEN t IS NULL THEN null ELSE [t.epochSeconds, t.nanosecond, t.offsetSeconds] END] AS times,
       coalesce(m.extractive, false) AS extractive,
       [(m)-[:DERIVED_FROM]->(s:Memory) WHERE s.id IN $ids | s.id] AS sources,
       [(m)-[:CONTRADICTS]->(b:Memory) WHERE b.id IN $ids | b.id] AS contradicts
