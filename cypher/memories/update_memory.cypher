// Change the given fields of one memory (null leaves a field as it is).
// mode: write
MATCH (m:Memory {id: $id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
SET m.text = coalesce($text, m.text),
    m.scope = coalesce($scope, m.scope),
    m.categories = coalesce($categories, m.categories),
    m.importance = coalesce($importance, m.importance),
    m.metadata_json = coalesce($metadata_json, m.metadata_json),
    m.embedding = coalesce($embedding, m.embedding),
    m.pinned = coalesce($pinned, m.pinned),
    m.decayed_strength = CASE WHEN $pinned THEN null ELSE m.decayed_strength END,
    m.updated_at = $now
RETURN m {.*, embedding: null} AS memory
