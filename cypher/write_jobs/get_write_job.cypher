// One background batch's state.
// mode: read
MATCH (j:WriteJob {id: $id})
RETURN j.id AS id, j.status AS status, j.items AS items, j.scopes AS scopes, j.submitted_at AS submitted_at,
       j.finished_at AS finished_at, j.created AS created, j.reinforced AS reinforced, j.error AS error
