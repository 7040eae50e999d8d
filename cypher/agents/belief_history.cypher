// A belief's history: the memory and every memory on its SUPERSEDES chain both ways (relation this/older/newer), newest first.
// mode: read
MATCH (m:Memory {id: $memory_id})
WHERE any(s IN $scopes WHERE s = '/' OR m.scope = s OR m.scope STARTS WITH s + '/')
CALL (m) {
  RETURN m AS belief, 'this' AS relation, 0 AS depth
  UNION
  MATCH path = (m)-[:SUPERSEDES*1..50]->(older:Memory)
  RETURN older AS belief, 'older' AS relation, length(path) AS depth
  UNION
  MATCH path = (newer:Memory)-[:SUPERSEDES*1..50]->(m)
  RETURN newer AS belief, 'newer' AS relation, length(path) AS depth
}
WITH belief, relation, min(depth) AS depth
WHERE any(s IN $scopes WHERE s = '/' OR belief.scope = s OR belief.scope STARTS WITH s + '/')
RETURN belief AS memory, relation, depth
ORDER BY belief.occurred_at DESC, depth
LIMIT $limit
