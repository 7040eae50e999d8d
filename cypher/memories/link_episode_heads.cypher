// Continue an episode across writes: each new memory that starts a run of its batch follows the latest earlier memory of its scope and source (none counts as one source) written within the episode gap before it.
// mode: write
UNWIND $heads AS head
MATCH (m:Memory {id: head.id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
CALL {
  WITH head
  MATCH (p:Memory)
  WHERE p.scope = head.scope
    AND p.occurred_at <= head.occurred_at AND p.occurred_at >= head.since
    AND p.layer = 'episodic' AND p.status <> 'deleted'
    AND coalesce(p.source, '') = coalesce(head.source, '')
    AND NOT p.id IN $new_ids
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE p.scope = ok OR p.scope STARTS WITH ok + '/'))
  RETURN p
  ORDER BY p.occurred_at DESC
  LIMIT 1
}
MERGE (p)-[:NEXT]->(m)
RETURN count(*) AS linked
