// Link memories written one after another in the same episode (NEXT), for context expansion.
// mode: write
UNWIND $pairs AS pair
MATCH (a:Memory {id: pair.before})
MATCH (b:Memory {id: pair.after})
WHERE ($allowed IS NULL OR any(ok IN $allowed WHERE a.scope = ok OR a.scope STARTS WITH ok + '/')) AND ($allowed IS NULL OR any(ok IN $allowed WHERE b.scope = ok OR b.scope STARTS WITH ok + '/'))
MERGE (a)-[:NEXT]->(b)
RETURN count(*) AS linked
