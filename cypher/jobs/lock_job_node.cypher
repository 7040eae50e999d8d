// The first statement of taking a job's lock: create the job's node if need be and write to it, which holds the node's write lock until the transaction ends, so that the next statement (acquire_job_lock) reads who holds the job after any other process's take has committed (a filter in one statement may be read before its SET locks the node).
// mode: write
MERGE (j:ConsolidationJob {name: $job})
SET j.lock_checked_at = $now
RETURN j.name AS name
