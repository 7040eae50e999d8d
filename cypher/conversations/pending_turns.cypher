// A conversation and its turns not yet reviewed for memories, oldest first (no row for an unknown id).
// mode: read
MATCH (c:Conversation {id: $conversation_id})
OPTIONAL MATCH (t:Turn)-[:IN]->(c)
  WHERE t.processed = false
WITH c, t
ORDER BY t.seq
WITH c, collect(t {.*, conversation_id: c.id})[..$limit] AS turns
RETURN c {.*} AS conversation, turns
