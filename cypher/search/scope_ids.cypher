// The ids of the memories in each of the given scopes (recall's vector cache drops the ones deleted or moved away).
// mode: read
UNWIND $scopes AS s
MATCH (m:Memory)
WHERE m.scope = s
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
RETURN s AS scope, collect(m.id) AS ids
