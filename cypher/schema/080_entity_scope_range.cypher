// Range index on entity scopes: the write path reads each scope's entities (entities/find_candidates) by seeking them here; without it (and 081) the planner scanned every entity of the graph twice per scope and batch, a cost that grew with the graph, not the scope (PROFILE, 20k entities: 80k db hits for 2 scopes, 400 with both indexes).
// mode: schema
CREATE INDEX entity_scope_range IF NOT EXISTS FOR (e:Entity) ON (e.scope)
