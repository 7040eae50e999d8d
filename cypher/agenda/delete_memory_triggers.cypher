// W10: remove the forward triggers about one memory (its text changed; they are computed again).
// mode: write
MATCH (t:FutureTrigger)-[:ABOUT]->(:Memory {id: $memory_id})
DETACH DELETE t
RETURN count(*) AS deleted
