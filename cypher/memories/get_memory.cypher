// One memory with its SUPERSEDES chain both ways, the memories it contradicts or is contradicted by only in part (CONTRADICTS {in_part: true}, one step), and the memories it was derived from.
// mode: read
MATCH (m:Memory {id: $id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
CALL {
  WITH m
  OPTIONAL MATCH path = (m)-[:SUPERSEDES*1..50]->(older:Memory)
  WITH older, min(length(path)) AS depth WHERE older IS NOT NULL AND ($allowed IS NULL OR any(ok IN $allowed WHERE older.scope = ok OR older.scope STARTS WITH ok + '/'))
  RETURN collect({id: older.id, text: older.text, status: older.status,
                  occurred_at: older.occurred_at, relation: 'supersedes', depth: depth}) AS older
}
CALL {
  WITH m
  OPTIONAL MATCH path = (newer:Memory)-[:SUPERSEDES*1..50]->(m)
  WITH newer, min(length(path)) AS depth WHERE newer IS NOT NULL AND ($allowed IS NULL OR any(ok IN $allowed WHERE newer.scope = ok OR newer.scope STARTS WITH ok + '/'))
  RETURN collect({id: newer.id, text: newer.text, status: newer.status,
                  occurred_at: newer.occurred_at, relation: 'superseded_by', depth: depth}) AS newer
}
CALL {
  WITH m
  OPTIONAL MATCH (m)-[c:CONTRADICTS {in_part: true}]-(other:Memory)
  WITH m, c, other WHERE other IS NOT NULL AND ($allowed IS NULL OR any(ok IN $allowed WHERE other.scope = ok OR other.scope STARTS WITH ok + '/'))
  RETURN collect({id: other.id, text: other.text, status: other.status, occurred_at: other.occurred_at,
                  relation: CASE WHEN startNode(c) = m THEN 'contradicts_in_part' ELSE 'contradicted_in_part_by' END,
                  reason: c.reason}) AS in_part
}
CALL {
  WITH m
  OPTIONAL MATCH (m)-[:DERIVED_FROM]->(source:Memory)
  WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE source.scope = ok OR source.scope STARTS WITH ok + '/'))
  RETURN collect(source.id) AS derived_from
}
RETURN m {.*, embedding: null} AS memory, older, newer, in_part, derived_from
