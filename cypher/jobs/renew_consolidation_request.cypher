// Extend the lease of a consolidation request its process is still running.
// mode: write
MATCH (r:ConsolidationRequest {id: $id})
WHERE r.state = 'running'
SET r.lease_until = $lease_until
RETURN r.id AS id
