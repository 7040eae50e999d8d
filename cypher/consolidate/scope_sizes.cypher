// How many memories of a layer and status each scope holds (with $history, also its episodes superseded by a later statement: not merged or refined restatements).
// mode: read
UNWIND $scopes AS scope
MATCH (m:Memory)
WHERE m.scope = scope AND m.layer = $layer AND (m.status = $status OR ($history AND m.status = 'superseded'
       AND NOT EXISTS { MATCH (:Memory)-[r:SUPERSEDES]->(m) WHERE r.reason IN ['merged', 'refined'] }))
RETURN scope, count(m) AS n
