// Mark a background batch running for this process, if it still holds the lease (or the lease ran out); returns nothing when another process has it or it is finished.
// mode: write
MATCH (j:WriteJob {id: $id})
WHERE j.status IN ['queued', 'running'] AND (j.owner = $owner OR j.lease_until < $now)
SET j.status = 'running', j.owner = $owner, j.lease_until = $lease_until, j.started_at = $now
RETURN j.id AS id
