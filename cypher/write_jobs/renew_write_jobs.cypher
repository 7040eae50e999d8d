// Extend this process's lease on its pending background batches (so no other process resumes them).
// mode: write
MATCH (j:WriteJob)
WHERE j.id IN $ids AND j.owner = $owner AND j.status IN ['queued', 'running']
SET j.lease_until = $lease_until
RETURN count(j) AS renewed
