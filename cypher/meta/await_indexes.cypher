// Wait until every index is online.
// mode: schema
CALL db.awaitIndexes($timeout_seconds)
