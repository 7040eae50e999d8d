// Health report: memories by layer, status and category ('unknown' layer or status for a node written without one).
// mode: read
MATCH (m:Memory)
UNWIND (CASE WHEN size(coalesce(m.categories, [])) = 0 THEN ['uncategorised'] ELSE m.categories END) AS category
RETURN coalesce(m.layer, 'unknown') AS layer, coalesce(m.status, 'unknown') AS status, category, count(DISTINCT m) AS n
ORDER BY layer, status, category
