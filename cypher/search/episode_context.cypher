// The episode context of recall candidates: for each candidate, the memories next to it in its episode (NEXT, either way) that the caller may read, with their cosine similarity to the query, to the candidate and to each other (all as vector.similarity.cosine, (1 + cos) / 2), and their texts. Recall reads a chat turn together with the turns around it (recall/episode_context.py).
// mode: read
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.embedding IS NOT NULL
  AND ($allowed IS NULL OR any(ok IN $allowed WHERE m.scope = ok OR m.scope STARTS WITH ok + '/'))
CALL {
  WITH m
  MATCH (m)-[:NEXT]-(n:Memory)
  WHERE n <> m AND n.embedding IS NOT NULL
    AND ($allowed IS NULL OR any(ok IN $allowed WHERE n.scope = ok OR n.scope STARTS WITH ok + '/'))
  RETURN collect(DISTINCT n)[..$per_memory] AS around
}
WITH m, around
WHERE size(around) > 0
RETURN m.id AS id,
       [n IN around | vector.similarity.cosine(n.embedding, $embedding)] AS to_query,
       [n IN around | vector.similarity.cosine(n.embedding, m.embedding)] AS to_memory,
       [a IN around | [b IN around | vector.similarity.cosine(a.embedding, b.embedding)]] AS among,
       [n IN around | n.text] AS texts
