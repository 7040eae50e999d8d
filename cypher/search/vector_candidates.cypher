// Approximate nearest memories to a query vector, with scope/layer/status filters in the query; without layers asked for, extractive cluster summaries (offline copies of a source that recall finds itself) stay out.
// mode: read
CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node AS m, score
WHERE m.status IN $statuses
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
  AND ($scopes IS NULL OR any(s IN $scopes WHERE m.scope = s.path OR m.scope STARTS WITH s.prefix))
  AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
  AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
  AND ($as_of IS NULL OR (m.occurred_at <= $as_of
       AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
RETURN m.id AS id, score,
       m.text AS text, m.importance AS importance, m.strength AS strength, m.layer AS layer,
       m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned, coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_at, m.status AS status
ORDER BY score DESC
LIMIT $limit
