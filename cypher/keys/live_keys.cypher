// The hashes and scopes of the keys not revoked, for authenticating requests.
// mode: read
MATCH (k:ApiKey)
WHERE k.revoked = false
RETURN k.hash AS hash, k.scopes AS scopes, k.read_scopes AS read_scopes
