// Graph neighbourhood of recall seeds (episode, belief chain up to its current end, shared rare entities with how many memories mention the rarest shared one), filtered; lineage (DERIVED_FROM) is handled after ranking, not spread here; each neighbour's cosine similarity to the query embedding comes along.
// mode: read
UNWIND $seeds AS seed
MATCH (s:Memory {id: seed})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE s.scope = ok OR s.scope STARTS WITH ok + '/'))
CALL {
  WITH s
  MATCH (s)-[r:NEXT|SUPERSEDES]-(m:Memory)
  RETURN m, type(r) AS via, 0 AS mentioned_by
  UNION
  WITH s
  MATCH (s)<-[:SUPERSEDES*2..4]-(m:Memory)
  RETURN m, 'SUPERSEDES' AS via, 0 AS mentioned_by
  UNION
  WITH s
  MATCH (s)-[:MENTIONS]->(e:Entity)<-[:MENTIONS]-(m:Memory)
  WHERE m <> s
  WITH m, COUNT { (e)<-[:MENTIONS]-(:Memory) } AS mentions
  WHERE mentions <= $max_entity_mentions
  RETURN m, 'MENTIONS' AS via, min(mentions) AS mentioned_by
}
WITH seed, m, via, mentioned_by
WHERE m.status IN $statuses
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
  AND ($scopes IS NULL OR any(sc IN $scopes WHERE m.scope = sc.path OR m.scope STARTS WITH sc.prefix))
  AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
  AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
  AND ($as_of IS NULL OR (m.occurred_at <= $as_of
       AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
RETURN DISTINCT seed, via, mentioned_by, m.id AS id, vector.similarity.cosine(m.embedding, $embedding) AS similarity,
       m.text AS text, m.importance AS importance, m.strength AS strength, m.layer AS layer,
       m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned, coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_at, m.status AS status
