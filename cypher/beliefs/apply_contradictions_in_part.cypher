// Record that newer beliefs contradict older ones only in part: a CONTRADICTS edge marked in_part, the older memory left current (active, its strength kept) for the rest of what it says.
// mode: write
UNWIND $rows AS row
MATCH (winner:Memory {id: row.winner_id})
MATCH (loser:Memory {id: row.loser_id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE winner.scope = ok OR winner.scope STARTS WITH ok + '/')) AND ($allowed IS NULL OR any(ok IN $allowed WHERE loser.scope = ok OR loser.scope STARTS WITH ok + '/'))
MERGE (winner)-[c:CONTRADICTS]->(loser)
  ON CREATE SET c.detected_at = row.detected_at, c.strength = row.strength, c.reason = row.reason, c.in_part = true
RETURN count(*) AS applied
