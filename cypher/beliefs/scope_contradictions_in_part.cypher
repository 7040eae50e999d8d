// Every CONTRADICTS edge marked in_part whose newer memory lies in scope $scope: both texts and ids, and the reason the belief check recorded.
// mode: read
MATCH (winner:Memory {scope: $scope})-[c:CONTRADICTS {in_part: true}]->(loser:Memory)
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE winner.scope = ok OR winner.scope STARTS WITH ok + '/'))
RETURN winner.id AS winner_id, winner.text AS winner_text, loser.id AS loser_id, loser.text AS loser_text,
       c.reason AS reason
ORDER BY loser.occurred_at, winner.occurred_at
