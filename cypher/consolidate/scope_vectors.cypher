// Every memory of a layer and status in one scope, with its vector (exact neighbourhoods of small scopes); with $history also those superseded by a later statement (not merged or refined restatements).
// mode: read
MATCH (m:Memory)
WHERE m.scope = $scope AND m.layer = $layer AND (m.status = $status OR ($history AND m.status = 'superseded'
       AND NOT EXISTS { MATCH (:Memory)-[r:SUPERSEDES]->(m) WHERE r.reason IN ['merged', 'refined'] }))
RETURN m.id AS id, m.embedding AS embedding
ORDER BY m.id
