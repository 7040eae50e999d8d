// The edges among the given memories, entities and decisions that existed at $as_of (null: now).
// mode: read
CALL () {
  MATCH (a:Memory)-[r:SUPERSEDES|CONTRADICTS|DERIVED_FROM|NEXT|MENTIONS]->(b)
  WHERE a.id IN $ids AND b.id IN $ids
  RETURN a, r, b
  UNION
  MATCH (a:Decision)-[r:SUPERSEDES|RECORDED_IN]->(b)
  WHERE a.id IN $ids AND b.id IN $ids
  RETURN a, r, b
}
WITH a, r, b, coalesce(r.detected_at, r.created_at, r.at) AS since
WHERE $as_of IS NULL OR since IS NULL OR since <= $as_of
RETURN a.id AS source, b.id AS target, type(r) AS type, properties(r) AS props
