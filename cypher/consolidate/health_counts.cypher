// Health report: memories by layer, status and category.
// mode: read
MATCH (m:Memory)
UNWIND (CASE WHEN size(coalesce(m.categories, [])) = 0 THEN ['uncategorised'] ELSE m.categories END) AS category
RETURN m.layer AS layer, m.status AS status, category, count(DISTINCT m) AS n
ORDER BY layer, status, category
