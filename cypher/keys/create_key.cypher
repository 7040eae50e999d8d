// Store a new API key: its id, name, the SHA-256 hash of its secret (never the secret) and the scopes it is bound to (null: unbound).
// mode: write
CREATE (k:ApiKey {id: $id})
SET k.name = $key_name,
    k.hash = $hash,
    k.scopes = $scopes,
    k.created_at = $now,
    k.revoked = false
RETURN k {.id, .name, .scopes, .created_at, .revoked, .revoked_at} AS key
