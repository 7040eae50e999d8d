// Revoke an API key by id (it stays listed, marked revoked); no row for an unknown id.
// mode: write
MATCH (k:ApiKey {id: $id})
SET k.revoked = true,
    k.revoked_at = coalesce(k.revoked_at, $now)
RETURN k {.id, .name, .scopes, .read_scopes, .created_at, .revoked, .revoked_at} AS key
