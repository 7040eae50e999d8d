// Take the write lock of each scope (MERGE its ScopeLock node, then SET it; pass them sorted) for the rest of the transaction, then return, as scope_embeddings does, how many memories it holds and, when at most $exact_below, the ids and embeddings of its active ones the caller may touch: the write path's lock and its similar-memory read in one round trip.
// mode: write
UNWIND $scopes AS scope
MERGE (l:ScopeLock {scope: scope})
SET l.locked_at = datetime()
WITH scope, COUNT { MATCH (m:Memory) WHERE m.scope = scope } AS size
CALL {
  WITH scope, size
  WITH scope, size WHERE size <= $exact_below
  MATCH (m:Memory) WHERE m.scope = scope AND m.status = 'active' AND m.embedding IS NOT NULL
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  RETURN collect(m.id) AS ids, collect(m.embedding) AS embeddings
}
RETURN scope, size, ids, embeddings
