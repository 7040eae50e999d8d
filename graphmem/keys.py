"""API keys: made by ``graphmem keys create``, kept hashed in Neo4j, checked in constant time.

A secret reads ``gm_<id>_<43 random characters>``; only its SHA-256 hash is stored. The secret
carries 256 random bits, so a fast hash is enough (a slow password hash such as argon2 guards
low-entropy passwords against guessing, which a random key does not need). Keys from
``GRAPHMEM_API_KEYS`` (``secret`` or ``secret@/scope|/scope``) keep working beside them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from graphmem.clock import Clock
from graphmem.errors import InvalidInputError, NotFoundError
from graphmem.scopes import normalize_scope
from graphmem.store.keys import ApiKeyRecord, ApiKeyStore
from graphmem.tenancy import canonical

SECRET_PREFIX = "gm_"
# How long the table of live stored keys is reused before it is read again: a revoked key keeps
# working for at most this long on a running server.
KEY_CACHE_SECONDS = 5.0


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest of a secret: what is stored and compared."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_secret() -> tuple[str, str]:
    """A fresh (key id, secret) pair."""
    key_id = secrets.token_hex(4)
    return key_id, f"{SECRET_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"


class ApiKeys:
    """Create, list and revoke stored keys."""

    def __init__(self, store: ApiKeyStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    def create(
        self, name: str, scopes: Sequence[str] | None = None, read_scopes: Sequence[str] | None = None
    ) -> tuple[str, ApiKeyRecord]:
        """A new key bound to ``scopes`` (None or ``/``: unbound), reading ``read_scopes`` too (X5:
        an agent writes in its own space and reads its tenant's); returns its secret (shown once)
        and its record. Raises InvalidInputError for a malformed scope or a blank name."""
        if not name.strip() or len(name) > 128:
            raise InvalidInputError("Give the key a name of 1 to 128 characters (whose key it is).")
        bound = canonical(normalize_scope(s) for s in scopes) if scopes else None
        reads = canonical(normalize_scope(s) for s in read_scopes) if read_scopes else None
        if read_scopes and reads is None:
            raise InvalidInputError(
                "A read scope of '/' reads every tenant: leave --read-scope out and --scope out "
                "for an unbound key, or name the tenant's scope (e.g. /org/acme)."
            )
        if read_scopes and bound is None and scopes:
            raise InvalidInputError("A key writing everywhere ('/') reads everywhere: drop --read-scope.")
        key_id, secret = new_secret()
        record = self._store.create(
            key_id,
            name.strip(),
            hash_secret(secret),
            None if bound is None else list(bound),
            self._clock.now(),
            read_scopes=None if reads is None else list(reads),
        )
        return secret, record

    def all(self) -> list[ApiKeyRecord]:
        """Every stored key, revoked ones included."""
        return self._store.all()

    def live(self) -> list[tuple[str, list[str] | None]]:
        """(hash, scopes) of every key not revoked (what :class:`KeyRing` loads)."""
        return self._store.live()

    def revoke(self, key_id: str) -> ApiKeyRecord:
        """Revoke a key by id; NotFoundError for an unknown id."""
        revoked = self._store.revoke(key_id, self._clock.now())
        if revoked is None:
            raise NotFoundError(f"No API key has id {key_id!r}; `graphmem keys list` shows them.")
        return revoked


class KeyRing:
    """Tells which scopes a presented secret grants: configured keys first, then stored live keys.

    ``load`` returns the live stored keys as (hash, scopes); it is called at most every
    ``ttl`` seconds. Every comparison runs over all candidates with ``hmac.compare_digest``.
    """

    def __init__(
        self,
        configured: Mapping[str, Sequence[str] | None],
        load: Callable[[], list[tuple[str, list[str] | None]]] | None,
        *,
        ttl: float = KEY_CACHE_SECONDS,
    ) -> None:
        # A binding is kept as given: a list of scopes, or a Grant that writes in fewer (X5).
        self._configured = dict(configured)
        self._load = load
        self._ttl = ttl
        self._cached: list[tuple[str, Sequence[str] | None]] = []
        self._loaded_at = float("-inf")
        self._lock = threading.Lock()

    def _stored(self) -> list[tuple[str, Sequence[str] | None]]:
        if self._load is None:
            return []
        with self._lock:
            if time.monotonic() - self._loaded_at > self._ttl:
                self._cached = list(self._load())
                self._loaded_at = time.monotonic()
            return self._cached

    def current(self) -> bool:
        """Whether :meth:`enabled` and :meth:`lookup` answer without reading Neo4j for at least the
        next second (no stored keys read, or read less than ``ttl`` - 1 seconds ago): the API
        then checks a key on its event loop instead of in a worker thread."""
        return self._load is None or time.monotonic() - self._loaded_at < self._ttl - 1.0

    def enabled(self) -> bool:
        """Whether any key exists (configured or stored live): then every request needs one.

        Raises DatabaseUnavailableError when only stored keys could say and Neo4j is down."""
        return bool(self._configured) or bool(self._stored())

    def lookup(self, secret: str) -> tuple[bool, Sequence[str] | None]:
        """Whether ``secret`` is a live key, and the scopes it is bound to (None: unbound; a
        :class:`graphmem.tenancy.Grant` when it writes in fewer scopes than it reads)."""
        found: bool = False
        scopes: Sequence[str] | None = None
        for key, bound in self._configured.items():
            if hmac.compare_digest(secret.encode("utf-8"), key.encode("utf-8")) and not found:
                found, scopes = True, bound
        if found:  # a configured key works while Neo4j is down
            return found, scopes
        digest = hash_secret(secret)
        for stored_hash, bound in self._stored():
            if hmac.compare_digest(digest, stored_hash) and not found:
                found, scopes = True, bound
        return found, scopes
