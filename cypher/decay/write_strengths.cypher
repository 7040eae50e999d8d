// D1: record each memory's decayed strength (what recall's "hidden below 0.1" reads) unless it was used again or left the active set since it was read.
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.status = 'active' AND coalesce(m.last_accessed_at, m.created_at, m.occurred_at).epochMillis = row.used_ms
SET m.decayed_strength = row.strength, m.decayed_at = $now
RETURN count(m) AS written
