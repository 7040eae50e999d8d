// The dimension the memory vector index was created with.
// mode: schema
SHOW VECTOR INDEXES YIELD name, options
WHERE name = 'memory_embedding'
RETURN options.indexConfig.`vector.dimensions` AS dimensions
