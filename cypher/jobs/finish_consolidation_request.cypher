// Record how a consolidation request ended: its state, its report (JSON) or its error.
// mode: write
MATCH (r:ConsolidationRequest {id: $id})
SET r.state = $state, r.finished_at = $finished_at, r.report_json = $report_json, r.error = $error
RETURN r.id AS id
