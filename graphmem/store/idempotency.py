"""Idempotency records: the first answer to a request, kept in Neo4j under its Idempotency-Key.

A record is claimed (``pending``) before the request runs and completed (``done``) with its
answer after; a repeat of the key then gets that answer back instead of running again. Records
expire (24 h by default); a pending claim whose process died is taken over after a while.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from graphmem.store.executor import QueryExecutor, Row, Transaction

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
class ClaimRequest:
    """A request about to run under an Idempotency-Key: whose key, which key, where to, what body."""

    caller: str
    key: str
    route: str
    body_hash: str


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
        return self.settle([ClaimRequest(caller, key, route, body_hash)], [], now)[0]

    def settle(
        self, claims: Sequence[ClaimRequest], answers: Sequence[tuple[Claim, StoredAnswer]], now: datetime
    ) -> list[Claim]:
        """Keep ``answers`` (as :meth:`complete` does each), then claim the keys of ``claims`` (as
        :meth:`claim` does each), all in one transaction; the claims, in order. Two claims of one
        key in one call are answered as if made one after the other."""
        made = [(record_id(c.caller, c.key), uuid.uuid4().hex, c) for c in claims]

        def work(tx: Transaction) -> list[Row]:
            if answers:
                tx.run("idempotency/complete_requests", rows=[_answer_row(c, a) for c, a in answers], now=now)
            if not made:
                return []
            rows = [
                {"index": i, "id": rid, "claim": token, "route": c.route, "body_hash": c.body_hash}
                for i, (rid, token, c) in enumerate(made)
            ]
            return tx.run(
                "idempotency/claim_requests",
                rows=rows,
                now=now,
                expires_at=now + self._ttl,
                stale_before=now - STALE_CLAIM,
            )

        found = {int(r["index"]): r for r in self._executor.write_unit(work, "idempotency settle")}
        return [
            _claim_of(found[i], rid, token, c.route, c.body_hash) for i, (rid, token, c) in enumerate(made)
        ]

    def complete(self, claim: Claim, answer: StoredAnswer, now: datetime) -> None:
        """Keep ``answer`` as the one every repeat of the claimed key gets."""
        self.settle([], [(claim, answer)], now)

    def release(self, claim: Claim) -> None:
        """Give the key back (the request failed in a way a retry may fix)."""
        self._executor.write("idempotency/release_request", id=claim.record_id, claim=claim.token)

    def purge_expired(self, now: datetime, limit: int = 10_000) -> int:
        """Delete up to ``limit`` expired records; returns how many."""
        rows = self._executor.write("idempotency/purge_expired", now=now, limit=limit)
        return int(rows[0]["purged"]) if rows else 0


def _answer_row(claim: Claim, answer: StoredAnswer) -> dict[str, object]:
    return {
        "id": claim.record_id,
        "claim": claim.token,
        "status": answer.status,
        "body": answer.body,
        "headers_json": json.dumps(answer.headers, sort_keys=True),
    }


def _claim_of(row: Row, rid: str, token: str, route: str, body_hash: str) -> Claim:
    """What a claim's row says: ours, a key used for another request, still running, or an answer."""
    if row["claimed"]:
        return Claim("claimed", rid, token)
    if row["route"] != route or row["body_hash"] != body_hash:
        return Claim("mismatch", rid, token, route=row["route"])
    if row["state"] != "done":
        return Claim("in_progress", rid, token)
    answer = StoredAnswer(int(row["status"]), str(row["body"]), json.loads(row["headers_json"] or "{}"))
    return Claim("replay", rid, token, answer=answer)
