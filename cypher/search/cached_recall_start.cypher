// The first round trip of a scoped recall that the in-process vector cache answers: the graph's revisions of the scopes asked for (a scope whose revision the cache does not know has changed, in this process or another: the cache catches up before it ranks), and the best BM25 matches of $text in those scopes (none when $text is null; asked of memory_text_scoped when $text_in_scopes, $text then naming the scopes so the index ranks within them) with the filters of every candidate and their ranking facts (their cosine comes from the cache). It needs no query vector: it is sent while the query is embedded.
// mode: read
CALL () {
  UNWIND $scopes AS s
  MATCH (l:ScopeLock)
  WHERE l.scope = s.path OR l.scope STARTS WITH s.prefix
  WITH DISTINCT l
  RETURN collect([l.scope, coalesce(l.revision, 0)]) AS revisions
}
CALL () {
  WITH $text AS text
  WHERE text IS NOT NULL
  CALL db.index.fulltext.queryNodes(CASE WHEN $text_in_scopes THEN 'memory_text_scoped' ELSE 'memory_text' END, text, {limit: $text_k}) YIELD node AS m, score
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
  RETURN collect({id: m.id, score: score, text: m.text, importance: m.importance, strength: m.strength,
           layer: m.layer, categories: m.categories, occurred: m.occurred_at.epochSeconds,
           accessed: coalesce(m.last_accessed_at, m.occurred_at).epochSeconds,
           spaced: coalesce(m.spaced_access_count, 0), priority: coalesce(m.priority, 0.0),
           pinned: coalesce(m.pinned, false), fade: coalesce(m.fade, 1.0),
           faded_at: m.consolidated_at.epochSeconds, status: m.status}) AS fulltext
}
RETURN revisions, fulltext
