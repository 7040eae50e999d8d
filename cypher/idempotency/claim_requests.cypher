// Claim the Idempotency-Keys of several requests in one statement, a row per request: a new key (or an expired record, or a pending claim gone stale because its process died) becomes that row's pending claim; otherwise the row returns the record that holds the key. Rows answer by their index.
// mode: write
UNWIND $rows AS row
MERGE (r:IdempotencyRecord {id: row.id})
ON CREATE SET r.claim = row.claim, r.route = row.route, r.body_hash = row.body_hash, r.state = 'pending',
              r.created_at = $now, r.expires_at = $expires_at
WITH row, r, r.claim <> row.claim AND (r.expires_at < $now OR (r.state = 'pending' AND r.created_at < $stale_before)) AS take_over
FOREACH (_ IN CASE WHEN take_over THEN [1] ELSE [] END |
  SET r.claim = row.claim, r.route = row.route, r.body_hash = row.body_hash, r.state = 'pending',
      r.created_at = $now, r.expires_at = $expires_at, r.status = null, r.body = null, r.headers_json = null
)
RETURN row.index AS index, r.claim = row.claim AS claimed, r.route AS route, r.body_hash AS body_hash,
       r.state AS state, r.status AS status, r.body AS body, r.headers_json AS headers_json
