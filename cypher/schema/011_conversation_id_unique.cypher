// Every conversation (a session id) is unique, which also makes MERGE on a new session safe under concurrency.
// mode: schema
CREATE CONSTRAINT conversation_id_unique IF NOT EXISTS FOR (c:Conversation) REQUIRE c.id IS UNIQUE
