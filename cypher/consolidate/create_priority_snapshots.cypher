// C6: record today's priority profile of each scope with its drift against the 30-day-old snapshot.
// mode: write
UNWIND $rows AS row
CREATE (p:PrioritySnapshot {id: row.id, scope: row.scope, taken_at: $now, profile_json: row.profile_json,
                            drift: row.drift, distance: row.distance, compared_to: row.compared_to,
                            gained: row.gained, lost: row.lost, job_run_id: $run_id})
RETURN count(p) AS snapshots
