// Keep the answers of several claimed requests in one statement, to be replayed for every repeat of their Idempotency-Keys until the records expire (a row whose claim was taken over changes nothing).
// mode: write
UNWIND $rows AS row
MATCH (r:IdempotencyRecord {id: row.id})
WHERE r.claim = row.claim
SET r.state = 'done', r.status = row.status, r.body = row.body, r.headers_json = row.headers_json, r.completed_at = $now
RETURN count(r) AS completed
