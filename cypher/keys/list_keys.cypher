// Every stored API key, oldest first (without hashes).
// mode: read
MATCH (k:ApiKey)
RETURN k {.id, .name, .scopes, .read_scopes, .created_at, .revoked, .revoked_at} AS key
ORDER BY k.created_at, k.id
