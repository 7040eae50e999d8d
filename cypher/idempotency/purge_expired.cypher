// Delete a batch of idempotency records past their expiry.
// mode: write
MATCH (r:IdempotencyRecord)
WHERE r.expires_at < $now
WITH r LIMIT $limit
DELETE r
RETURN count(*) AS purged
