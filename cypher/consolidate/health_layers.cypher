// Health report: memories by layer and status.
// mode: read
MATCH (m:Memory)
RETURN m.layer AS layer, m.status AS status, count(*) AS n
ORDER BY layer, status
