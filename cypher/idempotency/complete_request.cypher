// Keep the answer of a claimed request, to be replayed for every repeat of its Idempotency-Key until the record expires.
// mode: write
MATCH (r:IdempotencyRecord {id: $id})
WHERE r.claim = $claim
SET r.state = 'done', r.status = $status, r.body = $body, r.headers_json = $headers_json, r.completed_at = $now
RETURN count(r) AS completed
