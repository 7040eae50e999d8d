// One conversation's state (counters, open flag), or no row for an unknown id.
// mode: read
MATCH (c:Conversation {id: $conversation_id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE c.scope = ok OR c.scope STARTS WITH ok + '/'))
RETURN c {.*} AS conversation
