// Read one graphmem bookkeeping value (schema version, embedding model).
// mode: read
OPTIONAL MATCH (g:GraphmemMeta {key: $key})
RETURN g.value AS value, g.updated_at AS updated_at
