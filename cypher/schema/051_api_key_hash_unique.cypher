// A key's secret is kept only as its SHA-256 hash, which is unique.
// mode: schema
CREATE CONSTRAINT api_key_hash_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.hash IS UNIQUE
