// Unique FutureTrigger.id (W10 forward triggers).
// mode: schema
CREATE CONSTRAINT future_trigger_id_unique IF NOT EXISTS FOR (t:FutureTrigger) REQUIRE t.id IS UNIQUE
