// Range index on entity group ids: graphiti's entities (no scope yet) are read by group id in entities/find_candidates; with 080 both branches of its OR are index seeks.
// mode: schema
CREATE INDEX entity_group_id_range IF NOT EXISTS FOR (e:Entity) ON (e.group_id)
