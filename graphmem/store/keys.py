"""Stored API keys (``graphmem keys``): :ApiKey nodes holding a SHA-256 hash of the secret, never it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from graphmem.store.executor import QueryExecutor
from graphmem.store.records import native
from graphmem.tenancy import binding


class ApiKeyRecord(BaseModel):
    """A stored API key as it is listed (its secret is shown once, at creation, and never kept)."""

    id: str
    name: str
    scopes: list[str] | None
    read_scopes: list[str] | None = None  # X5: scopes it only reads (its tenant's other agents)
    created_at: datetime
    revoked: bool = False
    revoked_at: datetime | None = None


def _record(props: dict[str, Any]) -> ApiKeyRecord:
    return ApiKeyRecord.model_validate(native(props))


class ApiKeyStore:
    """Creates, lists, revokes and reads back the live API keys."""

    def __init__(self, executor: QueryExecutor) -> None:
        self._executor = executor

    def create(
        self,
        key_id: str,
        name: str,
        secret_hash: str,
        scopes: list[str] | None,
        now: datetime,
        read_scopes: list[str] | None = None,
    ) -> ApiKeyRecord:
        """Store a key by the hash of its secret."""
        rows = self._executor.write(
            "keys/create_key",
            id=key_id,
            key_name=name,
            hash=secret_hash,
            scopes=scopes,
            read_scopes=read_scopes,
            now=now,
        )
        return _record(rows[0]["key"])

    def all(self) -> list[ApiKeyRecord]:
        """Every stored key, revoked ones too, oldest first."""
        return [_record(r["key"]) for r in self._executor.read("keys/list_keys")]

    def revoke(self, key_id: str, now: datetime) -> ApiKeyRecord | None:
        """Mark a key revoked; None for an unknown id."""
        rows = self._executor.write("keys/revoke_key", id=key_id, now=now)
        return _record(rows[0]["key"]) if rows else None

    def live(self) -> list[tuple[str, list[str] | None]]:
        """(hash, binding) of every key not revoked (see :func:`graphmem.tenancy.binding`)."""
        return [
            (r["hash"], binding(r["scopes"], r["read_scopes"]) if r["scopes"] or r["read_scopes"] else None)
            for r in self._executor.read("keys/live_keys")
        ]
