// Range index on Memory.created_at: incremental consolidation reads what changed since its last run.
// mode: schema
CREATE INDEX memory_created_at IF NOT EXISTS FOR (m:Memory) ON (m.created_at)
