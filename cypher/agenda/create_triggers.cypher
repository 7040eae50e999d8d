// W10: a forward trigger per future day a new memory names, ABOUT that memory.
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {id: row.memory_id})
CREATE (t:FutureTrigger {id: row.id, due_on: row.due_on, scope: row.scope, created_at: row.created_at})-[:ABOUT]->(m)
RETURN count(t) AS created
