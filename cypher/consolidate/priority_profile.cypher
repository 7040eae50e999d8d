// C6: where a scope's attention is: per category, the summed importance × strength of its active memories.
// mode: read
MATCH (m:Memory)
WHERE m.status = 'active' AND m.layer = 'episodic'
UNWIND (CASE WHEN size(coalesce(m.categories, [])) = 0 THEN ['uncategorised'] ELSE m.categories END) AS category
WITH m.scope AS scope, category, sum(m.importance * m.strength) AS weight, count(m) AS items
RETURN scope, collect({category: category, weight: weight, items: items}) AS profile
ORDER BY scope
