// Append one turn to a conversation (created on its first turn) and count user turns towards the next review; no row when the conversation exists outside the caller's allowed scopes.
// mode: write
OPTIONAL MATCH (existing:Conversation {id: $conversation_id})
WITH existing
WHERE existing IS NULL
   OR ($allowed IS NULL OR any(ok IN $allowed WHERE existing.scope = ok OR existing.scope STARTS WITH ok + '/'))
MERGE (c:Conversation {id: $conversation_id})
  ON CREATE SET c.user = $user,
                c.scope = $scope,
                c.started_at = $at,
                c.last_turn_at = $at,
                c.turn_count = 0,
                c.user_turns = 0,
                c.turns_since_review = 0
// Setting a property first takes the node's write lock, so concurrent turns get distinct seq numbers.
SET c.open = true,
    c.ended_at = null,
    c.user = coalesce(c.user, $user)
WITH c, CASE WHEN $role = 'user' THEN 1 ELSE 0 END AS counted
WITH c, counted, c.turn_count + 1 AS seq, c.turns_since_review + counted AS since_review
WITH c, counted, seq, since_review, counted = 1 AND since_review >= $nudge_every AS review_due
SET c.turn_count = seq,
    c.user_turns = c.user_turns + counted,
    c.turns_since_review = CASE WHEN review_due THEN 0 ELSE since_review END,
    c.last_turn_at = CASE WHEN $at > c.last_turn_at THEN $at ELSE c.last_turn_at END
CREATE (t:Turn {id: $turn_id})-[:IN]->(c)
SET t.seq = seq,
    t.role = $role,
    t.text = $text,
    t.at = $at,
    t.processed = false
RETURN t {.*, conversation_id: c.id} AS turn, c {.*} AS conversation, review_due
