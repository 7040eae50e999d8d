// Replace the first fulltext index (standard analyzer) by one that stems English: drop it here.
// mode: schema
DROP INDEX memory_text IF EXISTS
