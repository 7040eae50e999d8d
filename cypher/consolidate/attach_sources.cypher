// Incremental C1/C2: new members of existing clusters join their derived memory (DERIVED_FROM, fade: γ on their stability), once, while their status is in $source_statuses. One row per derived memory.
// mode: write
UNWIND $attachments AS a
CALL (a) {
  MATCH (m:Memory {id: a.derived_id}) WHERE m.status = 'active'
  UNWIND a.sources AS given
  MATCH (src:Memory {id: given.id})
  WHERE src.status IN $source_statuses
    AND NOT EXISTS { MATCH (other:Memory)-[:DERIVED_FROM]->(src)
                     WHERE other.layer = m.layer AND other.status = 'active'
                       AND coalesce(other.kind, 'cluster') = coalesce(m.kind, 'cluster') }
  CREATE (m)-[:DERIVED_FROM {similarity: given.similarity, at: $now, job_run_id: $run_id}]->(src)
  SET src.fade = CASE WHEN coalesce(src.pinned, false) THEN 1.0 ELSE given.gamma END,
      src.consolidated_at = $now,
      m.occurred_at = CASE WHEN src.occurred_at > m.occurred_at THEN src.occurred_at ELSE m.occurred_at END
  RETURN count(src) AS attached
}
RETURN sum(attached) AS attached
