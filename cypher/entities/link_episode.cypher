// Link a memory to the Episodic node graphiti made of it (graphiti's queries read Episodic, graphmem's Memory).
// mode: write
MATCH (m:Memory {id: $memory_id})
MATCH (ep:Episodic {uuid: $episode_uuid})
MERGE (m)-[r:RECORDED_AS]->(ep)
RETURN count(r) AS linked
