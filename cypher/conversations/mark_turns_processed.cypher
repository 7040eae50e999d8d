// Mark turns of a conversation as reviewed, so no later review extracts them again.
// mode: write
MATCH (t:Turn)-[:IN]->(:Conversation {id: $conversation_id})
WHERE t.id IN $turn_ids
SET t.processed = true, t.processed_at = $now
RETURN count(t) AS marked
