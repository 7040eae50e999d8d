// Counts for the health route: memories by layer and status, entities, decisions.
// mode: read
CALL { MATCH (e:Entity) RETURN count(e) AS entities }
CALL { MATCH (d:Decision) RETURN count(d) AS decisions }
OPTIONAL MATCH (m:Memory)
WITH entities, decisions, m.layer AS layer, m.status AS status, count(m) AS n
RETURN entities, decisions, collect({layer: layer, status: status, n: n}) AS memories
