// Best BM25 matches of a Lucene query over memory texts, with the same filters as vector search.
// mode: read
CALL db.index.fulltext.queryNodes('memory_text', $text, {limit: $k}) YIELD node AS m, score
WHERE m.status IN $statuses
  AND ($scope IS NULL OR m.scope = $scope OR m.scope STARTS WITH $scope_prefix)
  AND ($layers IS NULL OR m.layer IN $layers)
  AND m.strength >= $min_strength
RETURN m.id AS id, score
ORDER BY score DESC
LIMIT $limit
