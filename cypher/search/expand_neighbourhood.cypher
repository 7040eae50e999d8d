// Graph neighbourhood of recall seeds (NEXT and DERIVED_FROM, both ways), under the search filters.
// mode: read
UNWIND $seeds AS seed
MATCH (s:Memory {id: seed})-[r:NEXT|DERIVED_FROM]-(m:Memory)
WHERE m.status IN $statuses
  AND ($scopes IS NULL OR any(sc IN $scopes WHERE m.scope = sc.path OR m.scope STARTS WITH sc.prefix))
  AND ($layers IS NULL OR m.layer IN $layers)
  AND m.strength >= $min_strength
  AND ($as_of IS NULL OR (m.occurred_at <= $as_of
       AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
RETURN seed, type(r) AS via, m.id AS id,
       m.importance AS importance, m.strength AS strength, m.layer AS layer,
       m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned
