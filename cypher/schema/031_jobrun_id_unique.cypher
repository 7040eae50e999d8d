// Every consolidation run is a JobRun node with its counts.
// mode: schema
CREATE CONSTRAINT jobrun_id_unique IF NOT EXISTS FOR (r:JobRun) REQUIRE r.id IS UNIQUE
