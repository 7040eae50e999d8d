// The second round trip of a scoped recall that the in-process vector cache answers: the graph's revisions of the scopes asked for again (when one moved since the first round trip, recall asks the graph instead: what the cache supplies is then not known to be current); its cached vector hits $hits (id, cosine, rank) kept where they pass the candidates' filters (status in $statuses), in rank order (the first $limit), with their ranking facts where the pool's detail rows do not carry them (not their texts: the cache holds them); and in the same statement what expand_with_details reads for the seeds, pool and episode context that recall chose from its cached hits before sending (neighbours with status in $neighbour_statuses): recall uses that part only when the hits that passed lead to the same choice, else it sends expand_with_details. Neighbours come as ids (their ranking facts with their detail rows), and they, the detail rows and the episode context come without texts or embeddings: recall takes those memories' texts, and their cosines to the query and among themselves, from its cache. A detail row is a list, its values in the order store/scope_vectors.py DETAIL_COLUMNS names them (each time as three values of the row itself, epoch seconds, nanosecond and offset, not a list of lists: decoding those lists was about half of what the detail rows cost the client), and a hit a list in CANDIDATE_COLUMNS order (only its id and cosine when it is in the pool) (the names of a map cost the client about a third of decoding the rows).
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
  RETURN collect(CASE WHEN m.id IN $pool THEN [m.id, h.cosine] ELSE
           [m.id, h.cosine, m.importance, m.strength, m.layer, m.categories, m.occurred_at.epochSeconds,
           coalesce(m.last_accessed_at, m.occurred_at).epochSeconds, coalesce(m.spaced_access_count, 0),
           coalesce(m.priority, 0.0), coalesce(m.pinned, false), coalesce(m.fade, 1.0),
           m.consolidated_at.epochSeconds, m.status] END) AS hits
}
CALL () {
  UNWIND $seeds AS seed
  MATCH (s:Memory {id: seed})
  WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE s.scope = ok OR s.scope STARTS WITH ok + '/'))
  CALL (s) {
    MATCH (s)-[r:NEXT|SUPERSEDES]-(m:Memory)
    RETURN m, type(r) AS via, 0 AS mentioned_by
    UNION
    MATCH (s)<-[:SUPERSEDES*2..4]-(m:Memory)
    RETURN m, 'SUPERSEDES' AS via, 0 AS mentioned_by
    UNION
    MATCH (s)-[:MENTIONS]->(e:Entity)<-[:MENTIONS]-(m:Memory)
    WHERE m <> s
    WITH m, COUNT { (e)<-[:MENTIONS]-(:Memory) } AS mentions
    WHERE mentions <= $max_entity_mentions
    RETURN m, 'MENTIONS' AS via, min(mentions) AS mentioned_by
  }
  WITH seed, m, via, mentioned_by
  WHERE m.status IN $neighbour_statuses
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
    AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
    AND ($scopes IS NULL OR any(sc IN $scopes WHERE m.scope = sc.path OR m.scope STARTS WITH sc.prefix))
    AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
    AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
    AND ($as_of IS NULL OR (m.occurred_at <= $as_of
         AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
  WITH DISTINCT seed, via, mentioned_by, m
  RETURN collect({seed: seed, via: via, mentioned_by: mentioned_by, id: m.id}) AS neighbours
}
CALL (neighbours) {
  WITH $pool + [n IN neighbours | n.id] AS ids
  UNWIND ids AS id
  WITH DISTINCT id, ids
  MATCH (m:Memory {id: id})
  WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  RETURN collect([m.id, m.layer, m.scope, m.importance, m.confidence, m.strength, m.status, m.source,
           m.metadata_json, coalesce(m.categories, []), coalesce(m.access_count, 0), coalesce(m.pinned, false),
           m.created_at.epochSeconds, m.created_at.nanosecond, m.created_at.offsetSeconds,
           m.occurred_at.epochSeconds, m.occurred_at.nanosecond, m.occurred_at.offsetSeconds,
           m.last_accessed_at.epochSeconds, m.last_accessed_at.nanosecond, m.last_accessed_at.offsetSeconds,
           m.updated_at.epochSeconds, m.updated_at.nanosecond, m.updated_at.offsetSeconds,
           coalesce(m.extractive, false), coalesce(m.spaced_access_count, 0), coalesce(m.priority, 0.0),
           coalesce(m.fade, 1.0), m.consolidated_at.epochSeconds,
           [(m)-[:DERIVED_FROM]->(s:Memory) WHERE s.id IN ids | s.id],
           [(m)-[:CONTRADICTS]->(b:Memory) WHERE b.id IN ids | b.id]]) AS details
}
CALL () {
  UNWIND $context_of AS id
  MATCH (m:Memory {id: id})
  WHERE m.embedding IS NOT NULL
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  CALL (m) {
    MATCH (m)-[:NEXT]-(n:Memory)
    WHERE n <> m AND n.embedding IS NOT NULL
      AND ($allowed IS NULL OR any(ok IN $allowed WHERE n.scope = ok OR n.scope STARTS WITH ok + '/'))
    RETURN collect(DISTINCT n)[..$per_memory] AS near
  }
  WITH m, near
  WHERE size(near) > 0
  RETURN collect({id: m.id, near: [n IN near | n.id]}) AS around
}
RETURN revisions, hits, neighbours, details, around
