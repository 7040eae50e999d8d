// Recall's vector candidates when its hits come ranked from the in-process vector cache: the revisions of the scopes asked for (the cache was current if it knows them all), and the hits that pass the filters, in rank order (the first $limit). Its fulltext candidates come from fulltext_candidates_cached, sent while the query is embedded.
// mode: read
CALL () {
  UNWIND $scopes AS s
  MATCH (l:ScopeLock)
  WHERE l.scope = s.path OR l.scope STARTS WITH s.prefix
  WITH DISTINCT l
  RETURN collect([l.scope, coalesce(l.revision, 0)]) AS revisions
}
CALL () {
  UNWIND $hits AS h
  CALL (h) {
    MATCH (m:Memory {id: h.id})
    RETURN m
  }
  WITH m, h
  WHERE m.status IN $statuses
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
    AND any(s IN $scopes WHERE m.scope = s.path OR m.scope STARTS WITH s.prefix)
    AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
    AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
    AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
    AND ($as_of IS NULL OR (m.occurred_at <= $as_of
         AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
  WITH m, h
  ORDER BY h.rank
  LIMIT $limit
  RETURN collect({m: m, score: h.cosine, retriever: 'vector'}) AS vector
}
RETURN revisions,
       [h IN vector | {retriever: h.retriever, id: h.m.id, score: h.score,
         text: h.m.text, importance: h.m.importance, strength: h.m.strength, layer: h.m.layer,
         categories: h.m.categories, occurred: h.m.occurred_at.epochSeconds,
         accessed: coalesce(h.m.last_accessed_at, h.m.occurred_at).epochSeconds,
         spaced: coalesce(h.m.spaced_access_count, 0), priority: coalesce(h.m.priority, 0.0),
         pinned: coalesce(h.m.pinned, false), fade: coalesce(h.m.fade, 1.0),
         faded_at: h.m.consolidated_at.epochSeconds, status: h.m.status}] AS hits
