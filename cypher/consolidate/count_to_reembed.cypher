// C7: how many memories still carry a vector from another model than $model.
// mode: read
MATCH (m:Memory)
WHERE coalesce(m.embedding_model, '') <> $model
RETURN count(m) AS remaining
