// Exact nearest memories inside the given scopes (when a scope is too small for the ANN index to reach); the same filters as vector search.
// mode: read
UNWIND $scopes AS s
MATCH (m:Memory)
WHERE (m.scope = s.path OR m.scope STARTS WITH s.prefix)
  AND m.status IN $statuses
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
  AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
  AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
  AND ($as_of IS NULL OR (m.occurred_at <= $as_of
       AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
WITH DISTINCT m
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $limit
RETURN m.id AS id, score,
       m.text AS text, m.importance AS importance, m.strength AS strength, m.layer AS layer,
       m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned, coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_at, m.status AS status
