// Heartbeat: extend the lock $owner holds on the job; returns nothing when the lock was lost.
// mode: write
MATCH (j:ConsolidationJob {name: $job})
WHERE j.locked_by = $owner
SET j.locked_until = $until
RETURN j.name AS name
