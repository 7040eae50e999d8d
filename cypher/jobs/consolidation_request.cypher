// One consolidation request's state, if the caller's scopes ($allowed, null for an unconfined key) hold its scope; a request still 'running' whose lease ran out before $now was left by a process that stopped: it reads as 'interrupted'.
// mode: read
MATCH (r:ConsolidationRequest {id: $id})
WHERE $allowed IS NULL OR any(ok IN $allowed WHERE r.scope = ok OR r.scope STARTS WITH ok + '/')
WITH r, r.state = 'running' AND r.lease_until IS NOT NULL AND r.lease_until < $now AS lapsed
RETURN r.id AS id, CASE WHEN lapsed THEN 'interrupted' ELSE r.state END AS state, r.jobs AS jobs, r.trigger AS trigger, r.started_at AS started_at,
       r.finished_at AS finished_at, r.report_json AS report_json,
       CASE WHEN lapsed THEN 'the process running it stopped before it finished; start a new run (it resumes where this one stopped)' ELSE r.error END AS error
