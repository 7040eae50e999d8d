// graphmem's own bookkeeping nodes (schema version, embedding model) are keyed.
// mode: schema
CREATE CONSTRAINT graphmem_meta_key_unique IF NOT EXISTS FOR (g:GraphmemMeta) REQUIRE g.key IS UNIQUE
