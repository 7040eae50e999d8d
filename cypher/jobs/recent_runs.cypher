// The latest runs of every job, newest first.
// mode: read
MATCH (r:JobRun)
RETURN r.id AS id, r.job AS job, r.status AS status, r.trigger AS trigger, r.started_at AS started_at,
       r.finished_at AS finished_at, r.duration_ms AS duration_ms, r.counts_json AS counts_json,
       r.step_ms_json AS step_ms_json,
       r.error AS error
ORDER BY r.started_at DESC
LIMIT $limit
