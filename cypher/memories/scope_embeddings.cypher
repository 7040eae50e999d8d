// For each scope, how many memories it holds and, when at most $exact_below, the ids and embeddings of its active ones the caller may read: the similar-memory lookup of a write ranks these in process (one read of the scope for a whole batch, instead of one cosine scan in Cypher per item).
// mode: read
UNWIND $scopes AS scope
WITH scope, COUNT { MATCH (m:Memory) WHERE m.scope = scope } AS size
CALL {
  WITH scope, size
  WITH scope, size WHERE size <= $exact_below
  MATCH (m:Memory) WHERE m.scope = scope AND m.status = 'active' AND m.embedding IS NOT NULL
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  RETURN collect(m.id) AS ids, collect(m.embedding) AS embeddings
}
RETURN scope, size, ids, embeddings
