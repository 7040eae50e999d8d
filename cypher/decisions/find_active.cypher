// The active decisions of each (scope, domain), newest first: the ones a new decision may reverse.
// mode: read
UNWIND $keys AS k
CALL (k) {
  MATCH (d:Decision {scope: k.scope, domain: k.domain})
  WHERE d.status = 'active' AND ($allowed IS NULL OR any(ok IN $allowed WHERE d.scope = ok OR d.scope STARTS WITH ok + '/'))
  RETURN d
  ORDER BY d.decided_at DESC
  LIMIT $limit
}
RETURN k.scope AS scope,
       k.domain AS domain,
       d.id AS id,
       d.text AS text,
       coalesce(d.choice, d.text) AS choice,
       d.decided_at AS decided_at
