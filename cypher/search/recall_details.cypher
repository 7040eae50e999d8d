// The full records of a recall's candidate pool in one round trip, each with its DERIVED_FROM sources and the memories it CONTRADICTS among the pool, and whether it is extractive (an offline copy of a source).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m {.*, embedding: null} AS memory, coalesce(m.extractive, false) AS extractive,
       [(m)-[:DERIVED_FROM]->(s:Memory) WHERE s.id IN $ids | s.id] AS sources,
       [(m)-[:CONTRADICTS]->(b:Memory) WHERE b.id IN $ids | b.id] AS contradicts
