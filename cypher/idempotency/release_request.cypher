// Give up a claim whose request failed in a way worth retrying (5xx, 401, 429): the next request with the key runs again.
// mode: write
MATCH (r:IdempotencyRecord {id: $id})
WHERE r.claim = $claim AND r.state = 'pending'
DELETE r
RETURN count(*) AS released
