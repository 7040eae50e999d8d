// Take the write lock of each scope (MERGE its ScopeLock node, then SET it) for the rest of the transaction: writers to one scope check duplicates and beliefs one after the other.
// mode: write
UNWIND $scopes AS scope
MERGE (l:ScopeLock {scope: scope})
SET l.locked_at = datetime()
RETURN count(l) AS locked
