// Record how a run ended with its counts; a successful run moves the job's watermark to its start.
// mode: write
MATCH (j:ConsolidationJob {name: $job})-[:RAN]->(r:JobRun {id: $id})
SET r.status = $status,
    r.finished_at = $now,
    r.duration_ms = $duration_ms,
    r.merged = $counts.merged,
    r.promoted = $counts.promoted,
    r.extracted = $counts.extracted,
    r.archived = $counts.archived,
    r.insights = $counts.insights,
    r.errors = $counts.errors,
    r.counts_json = $counts_json,
    r.step_ms_json = $step_ms_json,
    r.error = $error,
    j.last_run_at = r.started_at,
    j.last_status = $status,
    j.last_duration_ms = $duration_ms,
    j.watermark = CASE WHEN $status = 'succeeded' THEN r.started_at ELSE j.watermark END
RETURN r.id AS id
