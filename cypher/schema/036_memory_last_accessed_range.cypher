// Range index on Memory.last_accessed_at: archiving (C4) looks for what has not been used for long.
// mode: schema
CREATE INDEX memory_last_accessed_at IF NOT EXISTS FOR (m:Memory) ON (m.last_accessed_at)
