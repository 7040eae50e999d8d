// CONTRADICTS edges between memories of a result set (for the trust pass).
// mode: read
MATCH (a:Memory)-[c:CONTRADICTS]->(b:Memory)
WHERE a.id IN $ids AND b.id IN $ids
RETURN a.id AS a, b.id AS b
