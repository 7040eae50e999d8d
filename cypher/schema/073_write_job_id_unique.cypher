// One WriteJob node per background batch (W12), recorded before its 202 is sent.
// mode: schema
CREATE CONSTRAINT write_job_id_unique IF NOT EXISTS FOR (j:WriteJob) REQUIRE j.id IS UNIQUE
