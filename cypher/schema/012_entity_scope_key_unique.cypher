// graphmem's entities are keyed by (scope, key): one Entity per normalised name and scope (graphiti's own entities, which carry neither property, are not constrained).
// mode: schema
CREATE CONSTRAINT entity_scope_key_unique IF NOT EXISTS FOR (e:Entity) REQUIRE (e.scope, e.key) IS UNIQUE
