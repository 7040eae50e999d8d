// Record that newer beliefs replace older ones: SUPERSEDES and CONTRADICTS edges, the loser weakened and labelled SupersededMemory (greyed in Neo4j Browser).
// mode: write
UNWIND $rows AS row
MATCH (winner:Memory {id: row.winner_id})
MATCH (loser:Memory {id: row.loser_id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE winner.scope = ok OR winner.scope STARTS WITH ok + '/')) AND ($allowed IS NULL OR any(ok IN $allowed WHERE loser.scope = ok OR loser.scope STARTS WITH ok + '/'))
MERGE (winner)-[s:SUPERSEDES]->(loser)
  ON CREATE SET s.detected_at = row.detected_at, s.reason = row.reason
FOREACH (_ IN CASE WHEN row.contradicts THEN [1] ELSE [] END |
  MERGE (winner)-[c:CONTRADICTS]->(loser)
    ON CREATE SET c.detected_at = row.detected_at, c.strength = row.strength, c.reason = row.reason
)
SET loser:SupersededMemory,
    loser.status = 'superseded',
    loser.strength = row.loser_strength,
    loser.superseded_at = row.detected_at
RETURN count(*) AS applied
