// How many memories of a layer and status the whole graph holds (with $history, also those superseded by a later statement: not merged or refined restatements).
// mode: read
MATCH (m:Memory)
WHERE m.layer = $layer AND (m.status = $status OR ($history AND m.status = 'superseded'
       AND NOT EXISTS { MATCH (:Memory)-[r:SUPERSEDES]->(m) WHERE r.reason IN ['merged', 'refined'] }))
RETURN count(m) AS n
