// Close a conversation whose pending turns were just flushed (nothing left to count); no row for an unknown id.
// mode: write
MATCH (c:Conversation {id: $conversation_id})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE c.scope = ok OR c.scope STARTS WITH ok + '/'))
SET c.open = false, c.ended_at = $now, c.turns_since_review = 0
RETURN c {.*} AS conversation
