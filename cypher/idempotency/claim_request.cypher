// Claim an Idempotency-Key for one request, or return the record that already holds it: a new key (or an expired record, or a pending claim gone stale because its process died) becomes this request's pending claim.
// mode: write
MERGE (r:IdempotencyRecord {id: $id})
ON CREATE SET r.claim = $claim, r.route = $route, r.body_hash = $body_hash, r.state = 'pending',
              r.created_at = $now, r.expires_at = $expires_at
WITH r, r.claim <> $claim AND (r.expires_at < $now OR (r.state = 'pending' AND r.created_at < $stale_before)) AS take_over
FOREACH (_ IN CASE WHEN take_over THEN [1] ELSE [] END |
  SET r.claim = $claim, r.route = $route, r.body_hash = $body_hash, r.state = 'pending',
      r.created_at = $now, r.expires_at = $expires_at, r.status = null, r.body = null, r.headers_json = null
)
RETURN r.claim = $claim AS claimed, r.route AS route, r.body_hash AS body_hash, r.state AS state,
       r.status AS status, r.body AS body, r.headers_json AS headers_json
