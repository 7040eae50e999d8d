// Fulltext (BM25) index over memory texts.
// mode: schema
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text]
