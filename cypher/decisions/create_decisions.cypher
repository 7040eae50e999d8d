// Create decisions, each linked to the memory it was recorded in (RECORDED_IN) when that memory exists.
// mode: write
UNWIND $rows AS row
WITH row WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE row.scope = ok OR row.scope STARTS WITH ok + '/'))
CREATE (d:Decision {id: row.id})
SET d.text = row.text,
    d.choice = row.choice,
    d.reasoning = row.reasoning,
    d.domain = row.domain,
    d.outcome = row.outcome,
    d.decided_at = row.decided_at,
    d.status = row.status,
    d.scope = row.scope,
    d.memory_id = row.memory_id,
    d.recorded_at = row.recorded_at
WITH d, row
OPTIONAL MATCH (m:Memory {id: row.memory_id})
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | MERGE (d)-[:RECORDED_IN]->(m))
RETURN count(d) AS created
