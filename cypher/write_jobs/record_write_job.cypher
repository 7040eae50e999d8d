// Record an accepted background batch with its items, leased to the process that will write it.
// mode: write
CREATE (j:WriteJob {id: $id, status: 'queued', items: $items, items_json: $items_json, scopes: $scopes,
                    submitted_at: $submitted_at, owner: $owner, lease_until: $lease_until})
RETURN j.id AS id
