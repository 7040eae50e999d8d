// Range index on Memory.occurred_at for filters.
// mode: schema
CREATE INDEX memory_occurred_at IF NOT EXISTS FOR (m:Memory) ON (m.occurred_at)
