// Graph neighbourhood of recall seeds (episode, belief chain, shared rare entities), filtered; lineage (DERIVED_FROM) is handled after ranking, not spread here; each neighbour's cosine similarity to the query embedding comes along.
// mode: read
UNWIND $seeds AS seed
MATCH (s:Memory {id: seed})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE s.scope = ok OR s.scope STARTS WITH ok + '/'))
CALL {
  WITH s
  MATCH (s)-[r:NEXT|SUPERSEDES]-(m:Memory)
  RETURN m, type(r) AS via
  UNION
  WITH s
  MATCH (s)-[:MENTIONS]->(e:Entity)<-[:MENTIONS]-(m:Memory)
  WHERE m <> s AND COUNT { (e)<-[:MENTIONS]-(:Memory) } <= $max_entity_mentions
  RETURN m, 'MENTIONS' AS via
}
WITH seed, m, via
WHERE m.status IN $statuses
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND ($scopes IS NULL OR any(sc IN $scopes WHERE m.scope = sc.path OR m.scope STARTS WITH sc.prefix))
  AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
  AND m.strength >= $min_strength
  AND ($as_of IS NULL OR (m.occurred_at <= $as_of
       AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
RETURN DISTINCT seed, via, m.id AS id, vector.similarity.cosine(m.embedding, $embedding) AS similarity,
       m.text AS text, m.importance AS importance, m.strength AS strength, m.layer AS layer,
       m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned, coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_at
