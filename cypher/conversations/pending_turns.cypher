// A conversation and its turns not yet reviewed for memories, oldest first (no row for an unknown id).
// mode: read
MATCH (c:Conversation {id: $conversation_id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE c.scope = ok OR c.scope STARTS WITH ok + '/'))
OPTIONAL MATCH (t:Turn)-[:IN]->(c)
  WHERE t.processed = false
WITH c, t
ORDER BY t.seq
WITH c, collect(t {.*, conversation_id: c.id})[..$limit] AS turns
RETURN c {.*} AS conversation, turns
