// Record that newer decisions reverse older ones: a SUPERSEDES edge (new -> old), the older one superseded.
// mode: write
UNWIND $rows AS row
MATCH (winner:Decision {id: row.winner_id})
MATCH (loser:Decision {id: row.loser_id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE winner.scope = ok OR winner.scope STARTS WITH ok + '/')) AND ($allowed IS NULL OR any(ok IN $allowed WHERE loser.scope = ok OR loser.scope STARTS WITH ok + '/'))
MERGE (winner)-[s:SUPERSEDES]->(loser)
  ON CREATE SET s.detected_at = row.detected_at, s.reason = row.reason
SET loser.status = 'superseded',
    loser.superseded_at = row.detected_at
RETURN count(s) AS applied
