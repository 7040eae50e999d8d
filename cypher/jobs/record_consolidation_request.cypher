// Record a consolidation request started in the background (state 'running'), bound to the scope it works on, with a lease its process renews while it runs.
// mode: write
CREATE (r:ConsolidationRequest {id: $id, state: 'running', jobs: $jobs, trigger: $trigger, scope: $scope,
                                started_at: $started_at, owner: $owner, lease_until: $lease_until})
RETURN r.id AS id
