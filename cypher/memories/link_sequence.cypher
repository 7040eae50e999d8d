// Link memories written one after another in the same episode (NEXT), for context expansion.
// mode: write
UNWIND $pairs AS pair
MATCH (a:Memory {id: pair.before})
MATCH (b:Memory {id: pair.after})
MERGE (a)-[:NEXT]->(b)
RETURN count(*) AS linked
