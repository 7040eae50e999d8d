// Take the write lock of each scope ($scopes: {scope, known}, sorted by scope; MERGE its ScopeLock node, then SET it) for the rest of the transaction, then return how many memories it holds, its revision and, when it holds at most $exact_below, the ids of its active ones the caller may touch with the embeddings of those written after revision `known` (all of them for a known of -1; a memory without a revision always): the write path's lock and its similar-memory read in one round trip, sending back only the vectors the caller's cache lacks.
// mode: write
UNWIND $scopes AS s
MERGE (l:ScopeLock {scope: s.scope})
SET l.locked_at = datetime()
WITH s.scope AS scope, s.known AS known, coalesce(l.revision, 0) AS revision
WITH scope, known, revision, COUNT { MATCH (m:Memory) WHERE m.scope = scope } AS size
CALL {
  WITH scope, size, known
  WITH scope, size, known WHERE size <= $exact_below
  MATCH (m:Memory) WHERE m.scope = scope AND m.status = 'active' AND m.embedding IS NOT NULL
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  WITH m, m.revision IS NULL OR m.revision > known AS changed
  RETURN collect(m.id) AS ids,
         collect(CASE WHEN changed THEN m.id END) AS changed_ids,
         collect(CASE WHEN changed THEN m.embedding END) AS changed_embeddings
}
RETURN scope, size, revision, ids, changed_ids, changed_embeddings
