// Release the job's lock if $owner holds it.
// mode: write
MATCH (j:ConsolidationJob {name: $job})
WHERE j.locked_by = $owner
SET j.locked_by = null, j.locked_until = null
RETURN j.name AS name
