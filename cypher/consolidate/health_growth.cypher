// Health report: memories created per week over the last $weeks weeks.
// mode: read
MATCH (m:Memory)
WHERE m.created_at >= $since
WITH duration.inDays($since, m.created_at).days / 7 AS week, m.layer AS layer
RETURN week, layer, count(*) AS n
ORDER BY week, layer
