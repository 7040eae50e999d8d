// One IdempotencyRecord per (caller, Idempotency-Key): its id is a hash of both, unique so that two concurrent requests cannot both claim a key.
// mode: schema
CREATE CONSTRAINT idempotency_record_id_unique IF NOT EXISTS FOR (r:IdempotencyRecord) REQUIRE r.id IS UNIQUE
