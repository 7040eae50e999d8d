// C5: per scope and category, how many active memories there are and the strongest ones (importance × strength).
// mode: read
MATCH (m:Memory)
WHERE m.status = 'active' AND m.layer IN ['episodic', 'semantic'] AND coalesce(m.kind, 'cluster') = 'cluster'
UNWIND m.categories AS category
WITH m.scope AS scope, category, m ORDER BY m.importance * m.strength DESC, m.id
WITH scope, category, count(m) AS items,
     collect({id: m.id, text: m.text, importance: m.importance, strength: m.strength})[..$per_category] AS top
RETURN scope, category, items, top
ORDER BY scope, category
