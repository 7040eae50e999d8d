// Take the job's lock for $owner until $until, unless another owner holds an unexpired lock; returns the job when taken.
// mode: write
MERGE (j:ConsolidationJob {name: $job})
SET j.lock_checked_at = $now
WITH j
WHERE j.locked_by IS NULL OR j.locked_until < $now OR j.locked_by = $owner
SET j.locked_by = $owner, j.locked_until = $until
RETURN j.name AS name, j.last_run_at AS last_run_at, j.watermark AS watermark
