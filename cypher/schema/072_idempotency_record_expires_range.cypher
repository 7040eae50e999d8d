// Expired idempotency records are found by their expiry when they are purged.
// mode: schema
CREATE RANGE INDEX idempotency_record_expires IF NOT EXISTS FOR (r:IdempotencyRecord) ON (r.expires_at)
