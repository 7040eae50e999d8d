// C5: one CategorySummary per (scope, category).
// mode: schema
CREATE CONSTRAINT category_summary_key_unique IF NOT EXISTS FOR (s:CategorySummary) REQUIRE (s.scope, s.category) IS UNIQUE
