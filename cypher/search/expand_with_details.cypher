// A recall's second round trip: the graph neighbourhood of its seeds (episode, belief chain up to its current end, shared rare entities with how many memories mention the rarest shared one), filtered as expand_neighbourhood was, each neighbour with its cosine to the query embedding; then the records of the candidate pool $pool and of those neighbours (as recall_details reads them), each with its DERIVED_FROM sources and the memories it CONTRADICTS among them, its ranking facts and its text: a detail row is a list, its values in the order store/pool_rows.py GRAPH_DETAIL_COLUMNS names them (each time as three values of the row, not a list of lists; a neighbour's ranking facts and text come with its detail row, not again in the neighbour's map: the names of maps and the nested lists were most of what the client spent decoding these rows). Lineage is not spread here: it is handled after ranking. And the episode context of the candidates $context_of: for each, the memories next to it in its episode (NEXT, either way, at most $per_memory) with their cosines to the query, to the candidate and to each other (as vector.similarity.cosine, (1 + cos) / 2) and their texts (recall/episode_context.py). And how central each candidate of $context_of is among them (recall/hubs.py: its mean cosine to the others, which is its dot product with their sum less its own square): the sum of their embeddings, and each one's cosine to it and distance from the origin (as vector.similarity.cosine and vector.similarity.euclidean, 1 / (1 + d^2)), from which recall computes it (store/search.py centrality_from_sums; nothing to sum for fewer than two). Summing their pairwise cosines in Cypher took hundreds of milliseconds for a hundred candidates; sending their embeddings (about 35,000 floats) cost the client about 2 ms of CPU to decode, this about 1 ms more in Neo4j.
// mode: read
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
  WHERE m.status IN $statuses
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
    AND ($categories IS NULL OR any(c IN coalesce(m.categories, []) WHERE c IN $categories))
    AND ($scopes IS NULL OR any(sc IN $scopes WHERE m.scope = sc.path OR m.scope STARTS WITH sc.prefix))
    AND CASE WHEN $layers IS NULL THEN NOT (coalesce(m.extractive, false) AND coalesce(m.kind, 'cluster') = 'cluster') ELSE m.layer IN $layers END
    AND m.strength >= $min_strength AND coalesce(m.decayed_strength, m.strength) >= $min_strength
    AND ($as_of IS NULL OR (m.occurred_at <= $as_of
         AND NOT EXISTS { MATCH (w:Memory)-[:SUPERSEDES]->(m) WHERE w.occurred_at <= $as_of }))
  WITH DISTINCT seed, via, mentioned_by, m
  RETURN collect({seed: seed, via: via, mentioned_by: mentioned_by, id: m.id,
           similarity: vector.similarity.cosine(m.embedding, $embedding)}) AS neighbours
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
           [(m)-[:CONTRADICTS]->(b:Memory) WHERE b.id IN ids | b.id], m.text]) AS details
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
  RETURN collect({id: m.id,
           to_query: [n IN near | vector.similarity.cosine(n.embedding, $embedding)],
           to_memory: [n IN near | vector.similarity.cosine(n.embedding, m.embedding)],
           among: [a IN near | [b IN near | vector.similarity.cosine(a.embedding, b.embedding)]],
           texts: [n IN near | n.text]}) AS around
}
CALL () {
  UNWIND $context_of AS id
  MATCH (m:Memory {id: id})
  WHERE m.embedding IS NOT NULL
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  WITH collect(m.id) AS ids, collect(m.embedding) AS vectors
  WITH ids, vectors,
       CASE WHEN size(vectors) > 1
            THEN [i IN range(0, size(vectors[0]) - 1) | reduce(s = 0.0, v IN vectors | s + v[i])] END AS total
  WITH ids, vectors, total, [x IN total | 0.0] AS origin
  RETURN {ids: ids, to_total: [v IN vectors | vector.similarity.cosine(v, total)],
          from_origin: [v IN vectors | vector.similarity.euclidean(v, origin)],
          total_from_origin: vector.similarity.euclidean(total, origin)} AS centres
}
RETURN neighbours, details, around, centres
