// Health report: memories by layer and status ('unknown' for a node written without one, e.g. by hand).
// mode: read
MATCH (m:Memory)
RETURN coalesce(m.layer, 'unknown') AS layer, coalesce(m.status, 'unknown') AS status, count(*) AS n
ORDER BY layer, status
