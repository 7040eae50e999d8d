// DERIVED_FROM edges between candidates of a recall: which derived memories have sources among them, and whether each is extractive (an offline copy of a source).
// mode: read
MATCH (d:Memory)-[:DERIVED_FROM]->(s:Memory)
WHERE d.id IN $ids AND s.id IN $ids AND ($allowed IS NULL OR any(ok IN $allowed WHERE d.scope = ok OR d.scope STARTS WITH ok + '/')) AND ($allowed IS NULL OR any(ok IN $allowed WHERE s.scope = ok OR s.scope STARTS WITH ok + '/'))
RETURN d.id AS derived, collect(s.id) AS sources, coalesce(d.extractive, false) AS extractive
