// Mark turns of a conversation as reviewed, so no later review extracts them again.
// mode: write
MATCH (t:Turn)-[:IN]->(c:Conversation {id: $conversation_id})
WHERE t.id IN $turn_ids AND ($allowed IS NULL OR any(ok IN $allowed WHERE c.scope = ok OR c.scope STARTS WITH ok + '/'))
SET t.processed = true, t.processed_at = $now
RETURN count(t) AS marked
