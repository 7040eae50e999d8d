// One consolidation request's state, if the caller's scopes ($allowed, null for an unconfined key) hold its scope.
// mode: read
MATCH (r:ConsolidationRequest {id: $id})
WHERE $allowed IS NULL OR any(ok IN $allowed WHERE r.scope = ok OR r.scope STARTS WITH ok + '/')
RETURN r.id AS id, r.state AS state, r.jobs AS jobs, r.trigger AS trigger, r.started_at AS started_at,
       r.finished_at AS finished_at, r.report_json AS report_json, r.error AS error
