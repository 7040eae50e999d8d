// How many memories of a layer and status the whole graph holds.
// mode: read
MATCH (m:Memory)
WHERE m.layer = $layer AND m.status = $status
RETURN count(m) AS n
