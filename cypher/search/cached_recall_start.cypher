// The first round trip of a scoped recall that the in-process vector cache answers: the graph's revisions of the scopes asked for (a scope whose revision the cache does not know has changed, in this process or another: the cache catches up before it ranks), and the best BM25 matches of $text in those scopes (none when $text is null; asked of memory_text_scoped when $text_in_scopes, $text then naming the scopes so the index ranks within them) with the filters of every candidate and their ranking facts, not their texts (the cache holds them, and their cosines). A fulltext row is a list, its values in the order store/scope_vectors.py CANDIDATE_COLUMNS names them (the names of a map and the texts were about a fifth of the client's decoding of this statement, and reading the texts a share of its time in Neo4j). It needs no query vector: it is sent while the query is embedded.
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
  RETURN collect([m.id, score, m.importance, m.strength, m.layer, m.categories, m.occurred_at.epochSeconds,
           coalesce(m.last_accessed_at, m.occurred_at).epochSeconds, coalesce(m.spaced_access_count, 0),
           coalesce(m.priority, 0.0), coalesce(m.pinned, false), coalesce(m.fade, 1.0),
           m.consolidated_at.epochSeconds, m.status]) AS fulltext
}
RETURN revisions, fulltext
