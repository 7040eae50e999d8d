// Every memory of a layer and status in each of $scopes, with its vector, by scope then id (exact neighbourhoods of small scopes, a batch of scopes per read); with $history also those superseded by a later statement (not merged or refined restatements).
// mode: read
UNWIND $scopes AS scope
MATCH (m:Memory)
WHERE m.scope = scope AND m.layer = $layer AND (m.status = $status OR ($history AND m.status = 'superseded'
       AND NOT EXISTS { MATCH (:Memory)-[r:SUPERSEDES]->(m) WHERE r.reason IN ['merged', 'refined'] }))
RETURN scope, m.id AS id, m.embedding AS embedding
ORDER BY scope, id
