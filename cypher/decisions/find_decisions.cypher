// Decisions of a scope subtree in a domain whose text, choice or reasoning holds every topic term, newest first.
// mode: read
MATCH (d:Decision)
WHERE ($scope IS NULL OR d.scope = $scope OR d.scope STARTS WITH $scope_prefix)
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE d.scope = ok OR d.scope STARTS WITH ok + '/'))
  AND ($domain IS NULL OR d.domain = $domain)
  AND ($statuses IS NULL OR d.status IN $statuses)
  AND all(term IN $terms WHERE
        toLower(d.text + ' ' + coalesce(d.choice, '') + ' ' + coalesce(d.reasoning, '')) CONTAINS term)
OPTIONAL MATCH (d)-[:SUPERSEDES]->(older:Decision)
OPTIONAL MATCH (newer:Decision)-[:SUPERSEDES]->(d)
WITH d, collect(DISTINCT older.id) AS supersedes, collect(DISTINCT newer.id) AS superseded_by
RETURN d {.*} AS decision, supersedes, superseded_by
ORDER BY d.decided_at DESC, d.id
LIMIT $limit
