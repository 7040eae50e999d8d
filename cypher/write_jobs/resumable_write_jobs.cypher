// Background batches accepted but never finished whose lease ran out (their process died), oldest first, taken over by this process.
// mode: write
MATCH (j:WriteJob)
WHERE j.status IN ['queued', 'running'] AND j.lease_until < $now
WITH j ORDER BY j.submitted_at LIMIT $limit
SET j.status = 'queued', j.owner = $owner, j.lease_until = $lease_until
RETURN j.id AS id, j.items AS items, j.scopes AS scopes, j.submitted_at AS submitted_at, j.items_json AS items_json
