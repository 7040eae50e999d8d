// What changed in each of the given scopes since the revision recall's vector cache knows of it: the memories written since (with their embeddings and texts) and how many memories the scope holds now (fewer than the cache has: some were deleted or moved).
// mode: read
UNWIND $stale AS s
CALL (s) {
  MATCH (m:Memory)
  WHERE m.scope = s.scope AND m.revision > s.known
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
  RETURN collect({id: m.id, embedding: m.embedding, text: m.text}) AS changed
}
RETURN s.scope AS scope, changed, COUNT { MATCH (m:Memory) WHERE m.scope = s.scope } AS total
