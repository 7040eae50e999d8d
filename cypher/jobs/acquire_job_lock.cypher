// Take the job's lock for $owner until $until, unless another owner holds an unexpired lock; returns the job when taken. Runs after lock_job_node in the same transaction, which holds the node's write lock.
// mode: write
MATCH (j:ConsolidationJob {name: $job})
WHERE j.locked_by IS NULL OR j.locked_until < $now OR j.locked_by = $owner
SET j.locked_by = $owner, j.locked_until = $until
RETURN j.name AS name, j.last_run_at AS last_run_at, j.watermark AS watermark
