"""Idempotency records: the first answer to a request, kept in Neo4j under its Idempotency-Key.

A record is claimed (``pending``) before the request runs and completed (``done``) with its
answer after; a repeat of the key then gets that answer back instead of running again. Records
expire (24 h by default); a pending claim whose process died is taken over after a while.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from graphmem.store.executor import QueryExecutor

DEFAULT_TTL = timedelta(hours=24)
# A request still pending after this long died with its process; a repeat of its key runs again.
STALE_CLAIM = timedelta(minutes=10)

ClaimState = Literal["claimed", "replay", "mismatch", "in_progress"]


@dataclass(frozen=True)
class StoredAnswer:
    """The answer kept for a key: HTTP status, body bytes (UTF-8 text) and the headers worth replaying."""

    status: int
    body: str
    headers: dict[str, str]


@dataclass(frozen=True)
class Claim:
    """What claiming a key found: ours to run (``claimed``), an answer to replay, a key used for
    another request (``mismatch``), or the same request still running elsewhere (``in_progress``)."""

    state: ClaimState
    record_id: str
    token: str
    answer: StoredAnswer | None = None
    route: str | None = None


def record_id(caller: str, key: str) -> str:
    """The record's id: one key space per caller (a hash, so neither the key nor the caller is stored)."""
    return hashlib.sha256(f"{caller}\x00{key}".encode()).hexdigest()


class IdempotencyStore:
    """Claims, completes and releases idempotency records through ``cypher/idempotency/``."""

    def __init__(self, executor: QueryExecutor, ttl: timedelta = DEFAULT_TTL) -> None:
        self._executor = executor
        self._ttl = ttl

    def claim(self, caller: str, key: str, route: str, body_hash: str, now: datetime) -> Claim:
        """Claim ``key`` for a request to ``route`` whose body hashes to ``body_hash``."""
        rid = record_id(caller, key)
        token = uuid.uuid4().hex
        rows = self._executor.write(
            "idempotency/claim_request",
            id=rid,
            claim=token,
            route=route,
            body_hash=body_hash,
            now=now,
            expires_at=now + self._ttl,
            stale_before=now - STALE_CLAIM,
        )
        row = rows[0]
        if row["claimed"]:
            return Claim("claimed", rid, token)
        if row["route"] != route or row["body_hash"] != body_hash:
            return Claim("mismatch", rid, token, route=row["route"])
        if row["state"] != "done":
            return Claim("in_progress", rid, token)
        answer = StoredAnswer(int(row["status"]), str(row["body"]), json.loads(row["headers_json"] or "{}"))
        return Claim("replay", rid, token, answer=answer)

    def complete(self, claim: Claim, answer: StoredAnswer, now: datetime) -> None:
        """Keep ``answer`` as the one every repeat of the claimed key gets."""
        self._executor.write(
            "idempotency/complete_request",
            id=claim.record_id,
            claim=claim.token,
            status=answer.status,
            body=answer.body,
            headers_json=json.dumps(answer.headers, sort_keys=True),
            now=now,
        )

    def release(self, claim: Claim) -> None:
        """Give the key back (the request failed in a way a retry may fix)."""
        self._executor.write("idempotency/release_request", id=claim.record_id, claim=claim.token)

    def purge_expired(self, now: datetime, limit: int = 10_000) -> int:
        """Delete up to ``limit`` expired records; returns how many."""
        rows = self._executor.write("idempotency/purge_expired", now=now, limit=limit)
        return int(rows[0]["purged"]) if rows else 0
