// CONTRADICTS edges between memories of a result set (for the trust pass).
// mode: read
MATCH (a:Memory)-[c:CONTRADICTS]->(b:Memory)
WHERE a.id IN $ids AND b.id IN $ids AND ($allowed IS NULL OR any(ok IN $allowed WHERE a.scope = ok OR a.scope STARTS WITH ok + '/')) AND ($allowed IS NULL OR any(ok IN $allowed WHERE b.scope = ok OR b.scope STARTS WITH ok + '/'))
RETURN a.id AS a, b.id AS b
