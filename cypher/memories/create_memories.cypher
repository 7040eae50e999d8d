// Create a batch of episodic memories, one per row; each takes its scope's next revision (ScopeLock.revision, which recall's vector cache compares). Each comes back as its node's properties, its times as [epoch seconds, nanosecond, offset] (store/records.py CREATED_TIMES: the driver's DateTimes cost the client more CPU than the rest of the rows).
// mode: write
UNWIND $rows AS row
WITH row WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE row.scope = ok OR row.scope STARTS WITH ok + '/'))
CREATE (m:Memory:EpisodicMemory {id: row.id})
SET m.text = row.text,
    m.layer = 'episodic',
    m.scope = row.scope,
    m.categories = row.categories,
    m.importance = row.importance,
    m.confidence = row.confidence,
    m.strength = row.strength,
    m.status = row.status,
    m.created_at = row.created_at,
    m.occurred_at = row.occurred_at,
    m.last_accessed_at = row.created_at,
    m.access_count = 0,
    m.spaced_access_count = 0,
    m.source = row.source,
    m.metadata_json = row.metadata_json,
    m.embedding = row.embedding
WITH m
MERGE (l:ScopeLock {scope: m.scope})
SET l.revision = coalesce(l.revision, 0) + 1
SET m.revision = l.revision
RETURN m {.*, embedding: null, revision: null,
          created_at: CASE WHEN m.created_at IS NULL THEN null ELSE [m.created_at.epochSeconds, m.created_at.nanosecond, m.created_at.offsetSeconds] END,
          occurred_at: CASE WHEN m.occurred_at IS NULL THEN null ELSE [m.occurred_at.epochSeconds, m.occurred_at.nanosecond, m.occurred_at.offsetSeconds] END,
          last_accessed_at: CASE WHEN m.last_accessed_at IS NULL THEN null ELSE [m.last_accessed_at.epochSeconds, m.last_accessed_at.nanosecond, m.last_accessed_at.offsetSeconds] END} AS memory
