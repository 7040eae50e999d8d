// Record what became of a background batch (done with counts, or failed with the error); its items are dropped.
// mode: write
MATCH (j:WriteJob {id: $id})
SET j.status = $status, j.created = $created, j.reinforced = $reinforced, j.error = $error,
    j.finished_at = $finished_at, j.items_json = null
RETURN j.id AS id
