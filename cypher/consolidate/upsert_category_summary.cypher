// C5: write a category's summary from scratch (text, counts, DERIVED_FROM its members); unchanged text keeps updated_at.
// mode: write
MERGE (s:CategorySummary {scope: $scope, category: $category})
ON CREATE SET s.id = $id, s.created_at = $now
WITH s, coalesce(s.text = $text AND s.item_count = $items, false) AS unchanged
SET s.updated_at = CASE WHEN unchanged THEN s.updated_at ELSE $now END,
    s.text = $text, s.item_count = $items
WITH s, unchanged
CALL (s, unchanged) {
  OPTIONAL MATCH (s)-[r:DERIVED_FROM]->(old:Memory) WHERE NOT unchanged AND NOT old.id IN $member_ids
  DELETE r
}
CALL (s) {
  UNWIND $member_ids AS mid
  MATCH (m:Memory {id: mid})
  MERGE (s)-[:DERIVED_FROM]->(m)
}
RETURN s.id AS id, NOT unchanged AS changed
