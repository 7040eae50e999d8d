// C7: store re-made vectors with the model that made them.
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.embedding = row.embedding, m.embedding_model = $model
RETURN count(m) AS updated
