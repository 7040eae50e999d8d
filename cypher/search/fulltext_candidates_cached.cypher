// Recall's fulltext candidates when its vector hits come from the in-process vector cache: the best BM25 matches of $text in the scopes asked for, with the same filters as recall_candidates_cached and the ranking facts (their cosine comes from the cache). Sent while the query is embedded: it does not need the embedding.
// mode: read
CALL db.index.fulltext.queryNodes('memory_text', $text, {limit: $text_k}) YIELD node AS m, score
WHERE m.status IN $statuses
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  AND any(s IN $scopes WHERE m.scope = s.path OR m.scope STARTS WITH s.prefix)
  AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
  AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
  AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
  AND ($as_of IS NULL OR (m.occurred_at <= $as_of
       AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
WITH m, score
ORDER BY score DESC
LIMIT $text_limit
RETURN m.id AS id, score, m.text AS text, m.importance AS importance, m.strength AS strength,
       m.layer AS layer, m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned, coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_at, m.status AS status
