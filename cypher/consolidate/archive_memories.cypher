// C4: archive the given memories unless they were used again after their row's cutoff or were pinned meanwhile.
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.status = 'active' AND NOT coalesce(m.pinned, false)
  AND coalesce(m.last_accessed_at, m.created_at) < row.cutoff
SET m:ArchivedMemory, m.status = 'archived', m.archived_at = $now, m.archive_run_id = $run_id
RETURN m.id AS id
