// Range index on Memory.scope for filters.
// mode: schema
CREATE INDEX memory_scope IF NOT EXISTS FOR (m:Memory) ON (m.scope)
