// Vector and fulltext candidates of a recall in one round trip, with the same filters for both: the ANN top $k, or an exact scan of the scopes when they are too small a share of the graph for $k to reach $min_results of theirs (the ANN index answers before the scope filter) or when they leave fewer than $min_results of it; and the best BM25 matches of $text (none when it is null; asked of memory_text_scoped when $text_in_scopes, $text then naming the scopes so the index ranks within them). A fulltext match comes with its cosine to the query (`similarity`, as vector.similarity.cosine); a vector hit's is its score (reading every hit's embedding again for it cost Neo4j about a millisecond a recall at 100k).
// mode: read
CALL {
  UNWIND coalesce($scopes, []) AS s
  MATCH (m:Memory)
  WHERE m.scope = s.path OR m.scope STARTS WITH s.prefix
  RETURN count(DISTINCT m) AS in_scope
}
WITH in_scope, $scopes IS NOT NULL AND in_scope * $k < $min_results * COUNT { (:Memory) } AS exact_first
CALL {
  WITH exact_first
  WITH exact_first WHERE NOT exact_first
  CALL db.index.vector.queryNodes('memory_embedding', $k, $embedding) YIELD node AS m, score
  WHERE m.status IN $statuses
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
    AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
    AND ($scopes IS NULL OR any(s IN $scopes WHERE m.scope = s.path OR m.scope STARTS WITH s.prefix))
    AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
    AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
    AND ($as_of IS NULL OR (m.occurred_at <= $as_of
         AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
  WITH m, score
  ORDER BY score DESC
  LIMIT $limit
  RETURN collect({m: m, score: score}) AS ann
}
CALL {
  WITH exact_first, ann
  WITH ann WHERE $scopes IS NOT NULL AND (exact_first OR size(ann) < $min_results)
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
  RETURN collect({m: m, score: score}) AS exact
}
CALL {
  WITH exact_first
  WITH exact_first WHERE $text IS NOT NULL
  CALL db.index.fulltext.queryNodes(CASE WHEN $text_in_scopes THEN 'memory_text_scoped' ELSE 'memory_text' END, $text, {limit: $text_k}) YIELD node AS m, score
  WHERE m.status IN $statuses
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
    AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
    AND ($scopes IS NULL OR any(s IN $scopes WHERE m.scope = s.path OR m.scope STARTS WITH s.prefix))
    AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
    AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
    AND ($as_of IS NULL OR (m.occurred_at <= $as_of
         AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
  WITH m, score
  ORDER BY score DESC
  LIMIT $text_limit
  RETURN collect({m: m, score: score}) AS keyword
}
UNWIND [h IN CASE WHEN size(exact) > 0 THEN exact ELSE ann END | {m: h.m, score: h.score, retriever: 'vector'}]
     + [h IN keyword | {m: h.m, score: h.score, retriever: 'fulltext'}] AS hit
WITH hit.m AS m, hit.score AS score, hit.retriever AS retriever
RETURN retriever, m.id AS id, score,
       CASE WHEN retriever = 'fulltext' THEN vector.similarity.cosine(m.embedding, $embedding) END AS similarity,
       m.text AS text, m.importance AS importance, m.strength AS strength, m.layer AS layer,
       m.categories AS categories, m.occurred_at.epochSeconds AS occurred,
       coalesce(m.last_accessed_at, m.occurred_at).epochSeconds AS accessed,
       coalesce(m.spaced_access_count, 0) AS spaced, coalesce(m.priority, 0.0) AS priority,
       coalesce(m.pinned, false) AS pinned, coalesce(m.fade, 1.0) AS fade,
       m.consolidated_at.epochSeconds AS faded_at, m.status AS status
