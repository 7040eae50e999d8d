// Every memory of a layer and status in one scope, with its vector (exact neighbourhoods of small scopes).
// mode: read
MATCH (m:Memory)
WHERE m.scope = $scope AND m.layer = $layer AND m.status = $status
RETURN m.id AS id, m.embedding AS embedding
ORDER BY m.id
