// Range index on Memory.updated_at: incremental consolidation reads what changed since its last run.
// mode: schema
CREATE INDEX memory_updated_at IF NOT EXISTS FOR (m:Memory) ON (m.updated_at)
