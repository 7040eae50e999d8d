// Composite range index on Memory (scope, revision): what changed in a scope since a revision (recall's in-process vector cache catches up with writes of other processes).
// mode: schema
CREATE INDEX memory_scope_revision IF NOT EXISTS FOR (m:Memory) ON (m.scope, m.revision)
