// Fulltext (BM25) index over memory texts and scopes (English analyzer, like memory_text), so a scoped recall filters by scope inside the index instead of keeping only the scope's share of the graph's best matches.
// mode: schema
CREATE FULLTEXT INDEX memory_text_scoped IF NOT EXISTS FOR (m:Memory) ON EACH [m.text, m.scope]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
