// Write one graphmem bookkeeping value.
// mode: write
MERGE (g:GraphmemMeta {key: $key})
SET g.value = $value, g.updated_at = datetime()
RETURN g.value AS value
