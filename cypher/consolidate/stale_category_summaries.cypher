// C5: remove summaries of categories that no longer have any active memory.
// mode: write
MATCH (s:CategorySummary)
WHERE NOT [s.scope, s.category] IN $keep
DETACH DELETE s
RETURN count(*) AS removed
