"""``Idempotency-Key``: a repeated write returns its first answer and changes nothing twice.

Every POST, PATCH, PUT and DELETE under ``/v1/`` honours the header. The first request with a key
claims it in Neo4j, runs, and its answer (status, body) is kept for 24 hours; a repeat with the
same key and the same request gets that answer back, marked ``Idempotency-Replayed: true``. The
same key with another route or body is refused (422 ``idempotency_key_reused``); a repeat while
the first is still running gets 409 ``idempotency_in_progress`` (retry shortly). Keys are kept
per caller (per API key). Answers that a retry may change (5xx, 401, 408, 409, 429) are not kept.
The claims and answers of concurrent requests are written together, a transaction for all of them
(:mod:`graphmem.api.idempotency_batches`), each decided as it would be alone.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.api.errors import error_response, status_for
from graphmem.api.idempotency_batches import IdempotencyBatches
from graphmem.errors import GraphmemError
from graphmem.memory import Memory
from graphmem.store.idempotency import Claim, ClaimRequest, StoredAnswer

log = logging.getLogger(__name__)
T = TypeVar("T")

HEADER = "idempotency-key"
MAX_KEY_LENGTH = 255
WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})
NOT_KEPT = frozenset({401, 408, 409, 429})
THREADS = 40  # claims and answers at once (as many as the endpoints' own pool)
REPLAYED_HEADERS = ("content-type", "location", "retry-after")


def _header(scope: Scope, name: str) -> str | None:
    for key, value in scope.get("headers", []):
        if key.decode("latin-1").lower() == name:
            return str(value.decode("latin-1"))
    return None


def _key_problem(key: str) -> str | None:
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable() or not key.isascii():
        return (
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable ASCII characters "
            "(a UUID is a good choice)."
        )
    return None


def request_fingerprint(method: str, path: str, query: bytes, body: bytes) -> tuple[str, str]:
    """The route (``METHOD /path``) and a hash of the whole request (query string and body)."""
    route = f"{method} {path}"
    digest = hashlib.sha256(b"\x00".join([route.encode(), query, body])).hexdigest()
    return route, digest


def caller_of(scope: Scope) -> str:
    """Whose key space the request uses: a hash of its credentials (never kept as they are)."""
    credentials = _header(scope, "authorization") or ""
    return hashlib.sha256(credentials.encode()).hexdigest()


class IdempotencyMiddleware:
    """Replays the first answer to a repeated Idempotency-Key (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._purged = False
        # Claims whose release failed (Neo4j went away mid-request): released before the next
        # claim, so a client retrying after an outage is not told "in progress" for minutes.
        self._unreleased: dict[str, Claim] = {}
        self._unreleased_lock = threading.Lock()
        self._limiter: anyio.CapacityLimiter | None = None  # made in the event loop, on first use
        # Claims and answers of concurrent requests share transactions (one per Memory served).
        self._batches: tuple[Memory, IdempotencyBatches] | None = None
        self._batches_lock = threading.Lock()

    async def _in_thread(self, fn: Callable[..., T], *args: object) -> T:
        """Run a claim or an answer (a small Neo4j write) in a thread of this middleware's own pool:
        asyncio's default one has one thread per core plus four, and 50 concurrent writers queued
        behind it."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(THREADS)
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = _header(scope, HEADER) if scope["type"] == "http" else None
        if key is None or scope["method"] not in WRITE_METHODS or not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        problem = _key_problem(key)
        if problem is not None:
            await error_response(422, "invalid_input", problem)(scope, receive, send)
            return
        body = await _read_body(receive)
        route, digest = request_fingerprint(
            scope["method"], scope["path"], scope.get("query_string", b""), body
        )
        memory: Memory = scope["app"].state.memory
        try:
            claim = await self._in_thread(self._claim, memory, caller_of(scope), key, route, digest)
        except GraphmemError as e:
            await error_response(status_for(e), e.code, str(e))(scope, receive, send)
            return
        if claim.state == "claimed":
            await self._run(memory, claim, scope, body, send)
        elif claim.state == "replay" and claim.answer is not None:
            await _replay(claim.answer, send)
        elif claim.state == "mismatch":
            message = (
                f"This Idempotency-Key was already used for another request ({claim.route} with a "
                "different body); use a new key for a new request."
            )
            await error_response(422, "idempotency_key_reused", message)(scope, receive, send)
        else:
            response = error_response(
                409,
                "idempotency_in_progress",
                "A request with this Idempotency-Key is still running; retry in a moment to get its answer.",
            )
            response.headers["Retry-After"] = "1"
            await response(scope, receive, send)

    def _claim(self, memory: Memory, caller: str, key: str, route: str, digest: str) -> Claim:
        memory.prepare()
        self._release_leftovers(memory)
        now = datetime.now(UTC)
        if not self._purged:  # once per process: drop what expired meanwhile
            self._purged = True
            memory.idempotency.purge_expired(now)
        return self._batched(memory).claim(ClaimRequest(caller, key, route, digest))

    def _batched(self, memory: Memory) -> IdempotencyBatches:
        with self._batches_lock:
            if self._batches is None or self._batches[0] is not memory:
                self._batches = (memory, IdempotencyBatches(memory.idempotency))
            return self._batches[1]

    async def _run(self, memory: Memory, claim: Claim, scope: Scope, body: bytes, send: Send) -> None:
        messages: list[Message] = []
        sent_body = False

        async def replay_receive() -> Message:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            return {"type": "http.disconnect"}

        async def keep(message: Message) -> None:
            messages.append(message)

        try:
            await self.app(scope, replay_receive, keep)
        except BaseException:
            await self._in_thread(self._release, memory, claim)
            raise
        answer = _answer(messages)
        if answer is None or answer.status >= 500 or answer.status in NOT_KEPT:
            await self._in_thread(self._release, memory, claim)
        else:
            await self._in_thread(_quietly, self._batched(memory).complete, claim, answer)
        for message in messages:
            await send(message)

    def _release(self, memory: Memory, claim: Claim) -> None:
        try:
            memory.idempotency.release(claim)
        except GraphmemError as e:
            log.warning("idempotency claim kept until Neo4j answers again: %s", e)
            with self._unreleased_lock:
                self._unreleased[claim.record_id] = claim

    def _release_leftovers(self, memory: Memory) -> None:
        with self._unreleased_lock:
            leftovers = list(self._unreleased.values())
        for claim in leftovers:
            memory.idempotency.release(claim)  # raises while Neo4j is still away: the claim fails too
            with self._unreleased_lock:
                self._unreleased.pop(claim.record_id, None)


def _quietly(action: object, *args: object) -> None:
    try:
        action(*args)  # type: ignore[operator]
    except GraphmemError as e:  # the answer still goes out; a repeat may then run again
        log.warning("idempotency record not updated: %s", e)


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _answer(messages: list[Message]) -> StoredAnswer | None:
    start = next((m for m in messages if m["type"] == "http.response.start"), None)
    if start is None:
        return None
    raw = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    headers = {
        k.decode("latin-1").lower(): v.decode("latin-1")
        for k, v in start.get("headers", [])
        if k.decode("latin-1").lower() in REPLAYED_HEADERS
    }
    return StoredAnswer(int(start["status"]), text, headers)


async def _replay(answer: StoredAnswer, send: Send) -> None:
    body = answer.body.encode("utf-8")
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers.items()]
    headers += [(b"content-length", str(len(body)).encode()), (b"idempotency-replayed", b"true")]
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})
