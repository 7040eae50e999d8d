// Every scheduled job with its last run, watermark and lock.
// mode: read
MATCH (j:ConsolidationJob)
RETURN j.name AS name, j.last_run_at AS last_run_at, j.last_status AS last_status,
       j.last_duration_ms AS last_duration_ms, j.watermark AS watermark,
       j.locked_by AS locked_by, j.locked_until AS locked_until
ORDER BY name
