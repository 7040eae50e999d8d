// Record the start of a run; runs left 'running' by a process that died are marked 'interrupted'.
// mode: write
MATCH (j:ConsolidationJob {name: $job})
OPTIONAL MATCH (j)-[:RAN]->(stale:JobRun {status: 'running'})
SET stale.status = 'interrupted', stale.finished_at = $now
WITH DISTINCT j
CREATE (j)-[:RAN]->(r:JobRun {id: $id, job: $job, owner: $owner, status: 'running', started_at: $now,
                              since: $since, trigger: $trigger})
RETURN r.id AS id
