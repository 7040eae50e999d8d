// C1/C2/C4: create semantic or schema memories, each distilled from its sources still eligible (status in $source_statuses, not already distilled at that layer and kind); link DERIVED_FROM and fade the sources (γ on their stability). Each derived memory takes its scope's next revision (recall's vector cache). A derived memory counts its creation as a use (D1 time runs from $now, as for any new memory; the nightly decay pass must not hide it on the night it is made), with its sources' strongest strength and most spaced uses. One row per cluster; clusters are disjoint.
// mode: write
UNWIND $clusters AS c
CALL (c) {
  MATCH (src:Memory) WHERE src.id IN [s IN c.sources | s.id]
    AND src.status IN $source_statuses
    AND NOT EXISTS { MATCH (other:Memory)-[:DERIVED_FROM]->(src)
                     WHERE other.layer = c.memory.layer AND other.status = 'active'
                       AND coalesce(other.kind, 'cluster') = c.memory.kind }
  WITH collect(src) AS found, max(src.strength) AS strongest,
       max(coalesce(src.spaced_access_count, 0)) AS spaced
  WHERE size(found) >= $min_sources
  CREATE (m:Memory {id: c.memory.id})
  SET m.text = c.memory.text,
      m.layer = c.memory.layer,
      m.kind = c.memory.kind,
      m.extractive = c.memory.extractive,
      m.scope = c.memory.scope,
      m.categories = c.memory.categories,
      m.importance = c.memory.importance,
      m.confidence = c.memory.confidence,
      m.strength = coalesce(strongest, 1.0),
      m.status = 'active',
      m.created_at = $now,
      m.occurred_at = c.memory.occurred_at,
      m.last_accessed_at = $now,
      m.access_count = 0,
      m.spaced_access_count = spaced,
      m.source = 'consolidation',
      m.metadata_json = c.memory.metadata_json,
      m.embedding = c.memory.embedding,
      m.job_run_id = $run_id
  FOREACH (_ IN CASE WHEN c.memory.layer = 'semantic' THEN [1] ELSE [] END | SET m:SemanticMemory)
  FOREACH (_ IN CASE WHEN c.memory.layer = 'schema' THEN [1] ELSE [] END | SET m:SchemaMemory)
  WITH m, found
  MERGE (lock:ScopeLock {scope: m.scope})
  SET lock.revision = coalesce(lock.revision, 0) + 1
  SET m.revision = lock.revision
  WITH m, found
  UNWIND found AS src
  WITH m, src, [s IN c.sources WHERE s.id = src.id][0] AS given
  CREATE (m)-[:DERIVED_FROM {similarity: given.similarity, at: $now, job_run_id: $run_id}]->(src)
  SET src.fade = CASE WHEN coalesce(src.pinned, false) THEN 1.0 ELSE given.gamma END,
      src.consolidated_at = $now
  RETURN m.id AS id, count(src) AS sources
}
RETURN id, sources
