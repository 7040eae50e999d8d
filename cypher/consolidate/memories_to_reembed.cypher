// C7: memories whose vector was made by another model than $model, in pages by id.
// mode: read
MATCH (m:Memory)
WHERE m.id > $after AND coalesce(m.embedding_model, '') <> $model
RETURN m.id AS id, m.text AS text
ORDER BY m.id
LIMIT $page
