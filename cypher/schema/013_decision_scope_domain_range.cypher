// Range index on Decision (scope, domain): reversal checks and the ledger filter on both.
// mode: schema
CREATE INDEX decision_scope_domain IF NOT EXISTS FOR (d:Decision) ON (d.scope, d.domain)
