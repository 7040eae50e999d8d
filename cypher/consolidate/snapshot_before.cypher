// C6: for each scope, the newest priority snapshot taken at or before $before.
// mode: read
MATCH (p:PrioritySnapshot)
WHERE p.taken_at <= $before
WITH p ORDER BY p.taken_at DESC
WITH p.scope AS scope, collect(p)[0] AS p
RETURN scope, p.id AS id, p.taken_at AS taken_at, p.profile_json AS profile_json
