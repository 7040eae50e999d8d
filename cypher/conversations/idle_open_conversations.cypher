// Open conversations whose last turn is older than $before: sessions a crash or a lost client left open.
// mode: read
MATCH (c:Conversation)
WHERE c.open = true AND c.last_turn_at < $before
RETURN c.id AS conversation_id
ORDER BY c.last_turn_at
LIMIT $limit
