// One ConsolidationJob node per scheduled job (nightly, weekly, monthly): its lock and last run live there.
// mode: schema
CREATE CONSTRAINT consolidation_job_name_unique IF NOT EXISTS FOR (j:ConsolidationJob) REQUIRE j.name IS UNIQUE
