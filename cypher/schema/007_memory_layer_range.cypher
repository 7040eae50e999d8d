// Range index on Memory.layer for filters.
// mode: schema
CREATE INDEX memory_layer IF NOT EXISTS FOR (m:Memory) ON (m.layer)
