// Vector index over memory embeddings (all-MiniLM-L6-v2: 384 dimensions, cosine).
// mode: schema
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON (m.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
