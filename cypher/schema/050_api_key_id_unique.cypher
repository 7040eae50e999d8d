// One ApiKey node per key made with `graphmem keys create`, found by its public id.
// mode: schema
CREATE CONSTRAINT api_key_id_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE
