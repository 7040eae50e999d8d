// C7: store re-made vectors with the model that made them; each memory takes its scope's next revision (recall's vector cache reloads it).
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.embedding = row.embedding, m.embedding_model = $model
WITH m
MERGE (l:ScopeLock {scope: m.scope})
SET l.revision = coalesce(l.revision, 0) + 1
SET m.revision = l.revision
RETURN count(m) AS updated
