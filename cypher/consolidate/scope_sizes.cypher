// How many memories of a layer and status each scope holds.
// mode: read
UNWIND $scopes AS scope
MATCH (m:Memory)
WHERE m.scope = scope AND m.layer = $layer AND m.status = $status
RETURN scope, count(m) AS n
