// Store a new API key: its id, name, the SHA-256 hash of its secret (never the secret) the scopes it reads and writes (null: unbound) and those it only reads (X5; null: none).
// mode: write
CREATE (k:ApiKey {id: $id})
SET k.name = $key_name,
    k.hash = $hash,
    k.scopes = $scopes,
    k.read_scopes = $read_scopes,
    k.created_at = $now,
    k.revoked = false
RETURN k {.id, .name, .scopes, .read_scopes, .created_at, .revoked, .revoked_at} AS key
