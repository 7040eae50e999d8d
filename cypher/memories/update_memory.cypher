// Change the given fields of one memory (null leaves a field as it is); the memory takes its scope's next revision, and a scope it leaves gets a new one too (recall's vector cache compares them).
// mode: write
MATCH (m:Memory {id: $id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
WITH m, m.scope AS before
SET m.text = coalesce($text, m.text),
    m.scope = coalesce($scope, m.scope),
    m.categories = coalesce($categories, m.categories),
    m.importance = coalesce($importance, m.importance),
    m.metadata_json = coalesce($metadata_json, m.metadata_json),
    m.embedding = coalesce($embedding, m.embedding),
    m.pinned = coalesce($pinned, m.pinned),
    m.decayed_strength = CASE WHEN $pinned THEN null ELSE m.decayed_strength END,
    m.updated_at = $now
WITH m, before
CALL (m, before) {
  WITH m, before WHERE before <> m.scope
  MERGE (left:ScopeLock {scope: before})
  SET left.revision = coalesce(left.revision, 0) + 1
}
MERGE (l:ScopeLock {scope: m.scope})
SET l.revision = coalesce(l.revision, 0) + 1
SET m.revision = l.revision
RETURN m {.*, embedding: null, revision: null} AS memory
