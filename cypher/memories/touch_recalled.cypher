// D2 + D3: memories a recall returned are reinforced (spacing-aware) and become labile for a while. Times come as ISO-8601 text with their offset: the driver packs a datetime parameter in pure Python (30 us each, two per memory).
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
SET m.strength = row.strength,
    m.decayed_strength = null,
    m.last_accessed_at = datetime(row.accessed_at),
    m.access_count = coalesce(m.access_count, 0) + 1,
    m.spaced_access_count = coalesce(m.spaced_access_count, 0) + row.spaced,
    m.labile_until = CASE WHEN row.labile THEN datetime(row.labile_until) ELSE m.labile_until END
RETURN count(m) AS touched
