// Decisions whose text, choice or reasoning holds every word of the topic, newest first, with the ids they reverse and are reversed by.
// mode: read
MATCH (d:Decision)
WHERE any(s IN $scopes WHERE s = '/' OR d.scope = s OR d.scope STARTS WITH s + '/')
  AND all(term IN split(toLower(trim($topic)), ' ') WHERE term = ''
      OR toLower(coalesce(d.text, '') + ' ' + coalesce(d.choice, '') + ' ' + coalesce(d.reasoning, ''))
         CONTAINS term)
OPTIONAL MATCH (d)-[:SUPERSEDES]->(older:Decision)
OPTIONAL MATCH (newer:Decision)-[:SUPERSEDES]->(d)
WITH d, collect(DISTINCT older.id) AS reverses, collect(DISTINCT newer.id) AS reversed_by
RETURN d AS decision, reverses, reversed_by
ORDER BY d.decided_at DESC
LIMIT $limit
