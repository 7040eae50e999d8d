// Fulltext (BM25) index over memory texts with English stemming and stop words.
// mode: schema
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
