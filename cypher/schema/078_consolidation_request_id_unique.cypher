// One ConsolidationRequest node per POST /v1/consolidate run in the background, readable from every API process.
// mode: schema
CREATE CONSTRAINT consolidation_request_id_unique IF NOT EXISTS FOR (r:ConsolidationRequest) REQUIRE r.id IS UNIQUE
