// Pairs of memories that contradict each other (the CONTRADICTS edge points from the newer belief), most recent first.
// mode: read
MATCH (a:Memory)-[c:CONTRADICTS]->(b:Memory)
WHERE any(s IN $scopes WHERE s = '/' OR a.scope = s OR a.scope STARTS WITH s + '/')
  AND any(s IN $scopes WHERE s = '/' OR b.scope = s OR b.scope STARTS WITH s + '/')
RETURN a AS memory, c AS contradiction, b AS contradicted
ORDER BY c.detected_at DESC
LIMIT $limit
