// C1/C2/C4: create a semantic or schema memory distilled from sources still active and not already distilled at that layer, link DERIVED_FROM, fade the sources.
// mode: write
MATCH (src:Memory) WHERE src.id IN [s IN $sources | s.id]
  AND src.status IN $source_statuses
  AND NOT EXISTS { MATCH (other:Memory)-[:DERIVED_FROM]->(src)
                   WHERE other.layer = $memory.layer AND other.status = 'active'
                     AND coalesce(other.kind, 'cluster') = $memory.kind }
WITH collect(src) AS found
WHERE size(found) >= $min_sources
CREATE (m:Memory {id: $memory.id})
SET m.text = $memory.text,
    m.layer = $memory.layer,
    m.kind = $memory.kind,
    m.scope = $memory.scope,
    m.categories = $memory.categories,
    m.importance = $memory.importance,
    m.confidence = $memory.confidence,
    m.strength = 1.0,
    m.status = 'active',
    m.created_at = $now,
    m.occurred_at = $memory.occurred_at,
    m.last_accessed_at = $now,
    m.access_count = 0,
    m.spaced_access_count = 0,
    m.source = 'consolidation',
    m.metadata_json = $memory.metadata_json,
    m.embedding = $memory.embedding,
    m.job_run_id = $run_id
FOREACH (_ IN CASE WHEN $memory.layer = 'semantic' THEN [1] ELSE [] END | SET m:SemanticMemory)
FOREACH (_ IN CASE WHEN $memory.layer = 'schema' THEN [1] ELSE [] END | SET m:SchemaMemory)
WITH m, found
UNWIND found AS src
WITH m, src, [s IN $sources WHERE s.id = src.id][0] AS given
CREATE (m)-[:DERIVED_FROM {similarity: given.similarity, at: $now, job_run_id: $run_id}]->(src)
SET src.strength = CASE WHEN coalesce(src.pinned, false) THEN src.strength
                        ELSE CASE WHEN src.strength * given.gamma < 0.05 THEN 0.05
                                  ELSE src.strength * given.gamma END END,
    src.consolidated_at = $now
RETURN m.id AS id, count(src) AS sources
