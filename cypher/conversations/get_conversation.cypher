// One conversation's state (counters, open flag), or no row for an unknown id.
// mode: read
MATCH (c:Conversation {id: $conversation_id})
RETURN c {.*} AS conversation
