// One ScopeLock node per scope: concurrent first writers MERGE the same node (the constraint makes MERGE safe under concurrency).
// mode: schema
CREATE CONSTRAINT scope_lock_scope_unique IF NOT EXISTS FOR (l:ScopeLock) REQUIRE l.scope IS UNIQUE
