// C3: merge each pair's loser into its winner (same scope and layer, both active): the winner keeps the higher confidence and takes the loser's sources, entities, decisions and conflicts (a contradiction in part stays in part); the loser is superseded (reason 'merged'), never deleted. Pairs of one call share no memory.
// mode: write
UNWIND $pairs AS pair
CALL (pair) {
  MATCH (w:Memory {id: pair.winner}), (l:Memory {id: pair.loser})
  WHERE w.status = 'active' AND l.status = 'active' AND w.scope = l.scope AND w.layer = l.layer
    AND NOT EXISTS { MATCH (w)-[:SUPERSEDES|CONTRADICTS]-(l) }
  SET w.confidence = CASE WHEN l.confidence > w.confidence THEN l.confidence ELSE w.confidence END,
      w.importance = CASE WHEN l.importance > w.importance THEN l.importance ELSE w.importance END,
      w.strength = CASE WHEN l.strength > w.strength THEN l.strength ELSE w.strength END,
      w.decayed_strength = null,
      w.access_count = coalesce(w.access_count, 0) + coalesce(l.access_count, 0),
      w.categories = w.categories + [c IN coalesce(l.categories, []) WHERE NOT c IN w.categories],
      w.occurred_at = CASE WHEN l.occurred_at > w.occurred_at THEN l.occurred_at ELSE w.occurred_at END,
      w.merged_ids = coalesce(w.merged_ids, []) + [l.id],
      l.status = 'superseded',
      l:SupersededMemory,
      l.superseded_at = $now
  CREATE (w)-[:SUPERSEDES {reason: 'merged', detected_at: $now, similarity: pair.similarity, job_run_id: $run_id}]->(l)
  WITH w, l
  CALL (w, l) {
    OPTIONAL MATCH (l)-[r:MENTIONS]->(e:Entity)
    FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (w)-[:MENTIONS]->(e))
    DELETE r
  }
  CALL (w, l) {
    OPTIONAL MATCH (d:Memory)-[r:DERIVED_FROM]->(l) WHERE d <> w
    FOREACH (_ IN CASE WHEN d IS NULL THEN [] ELSE [1] END |
      MERGE (d)-[n:DERIVED_FROM]->(w) ON CREATE SET n.similarity = r.similarity, n.at = r.at)
    DELETE r
  }
  CALL (w, l) {
    OPTIONAL MATCH (l)-[r:DERIVED_FROM]->(s:Memory) WHERE s <> w
    FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END |
      MERGE (w)-[n:DERIVED_FROM]->(s) ON CREATE SET n.similarity = r.similarity, n.at = r.at)
    DELETE r
  }
  CALL (w, l) {
    OPTIONAL MATCH (dec:Decision)-[r:RECORDED_IN]->(l)
    FOREACH (_ IN CASE WHEN dec IS NULL THEN [] ELSE [1] END | MERGE (dec)-[:RECORDED_IN]->(w))
    DELETE r
  }
  CALL (w, l) {
    OPTIONAL MATCH (l)-[r:CONTRADICTS]-(o:Memory) WHERE o <> w
    FOREACH (_ IN CASE WHEN o IS NULL THEN [] ELSE [1] END |
      MERGE (w)-[n:CONTRADICTS]->(o) ON CREATE SET n.strength = r.strength, n.detected_at = r.detected_at, n.in_part = r.in_part)
    DELETE r
  }
  RETURN w.id AS winner, l.id AS loser
}
RETURN winner, loser
