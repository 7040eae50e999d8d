// Range index on Memory.status for filters.
// mode: schema
CREATE INDEX memory_status IF NOT EXISTS FOR (m:Memory) ON (m.status)
