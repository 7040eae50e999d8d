// C6: priority snapshots are looked up by scope and time.
// mode: schema
CREATE INDEX priority_snapshot_scope_taken IF NOT EXISTS FOR (p:PrioritySnapshot) ON (p.scope, p.taken_at)
