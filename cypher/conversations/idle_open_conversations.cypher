// Open conversations whose last turn is older than $before: sessions a crash or a lost client left open.
// mode: read
MATCH (c:Conversation)
WHERE c.open = true AND c.last_turn_at < $before AND ($allowed IS NULL OR any(ok IN $allowed WHERE c.scope = ok OR c.scope STARTS WITH ok + '/'))
RETURN c.id AS conversation_id
ORDER BY c.last_turn_at
LIMIT $limit
