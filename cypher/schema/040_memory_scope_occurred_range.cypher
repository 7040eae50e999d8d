// Composite range index on Memory (scope, occurred_at): the latest memory of a scope before a time (episodes across writes).
// mode: schema
CREATE INDEX memory_scope_occurred_at IF NOT EXISTS FOR (m:Memory) ON (m.scope, m.occurred_at)
