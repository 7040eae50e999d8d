// R7 echo/fizzle: move the retrieval priority of memories an answer used (+) or ignored (-).
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
SET m.priority = CASE
    WHEN coalesce(m.priority, 0.0) + row.delta > $ceiling THEN $ceiling
    WHEN coalesce(m.priority, 0.0) + row.delta < $floor THEN $floor
    ELSE coalesce(m.priority, 0.0) + row.delta END
RETURN m.id AS id, m.text AS text
