"""Per-key rate limits: reads and writes counted apart in a moving window; 429 with Retry-After.

A limit reads like ``600/minute`` (``limits`` notation: ``N/second|minute|hour|day``, several
joined by ``;``); an empty one is no limit. A caller is its API key (by hash), or its address when
the API is open. Counts live in this process's memory: each server counts its own requests.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from fastapi import HTTPException, Request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from graphmem.api.deps import CallerDep
from graphmem.errors import InvalidInputError

# POST routes that only read: they count against the read limit.
_READING_POSTS = ("/v1/recall", "/v1/cypher")


def parse_limit(text: str, what: str) -> list[RateLimitItem]:
    """The limits in ``text`` (empty: none); InvalidInputError naming ``what`` when malformed."""
    if not text.strip():
        return []
    try:
        return list(parse_many(text))
    except ValueError as e:
        raise InvalidInputError(
            f"{what} {text!r} is not a rate limit: write it like '600/minute' or '10/second;500/hour'."
        ) from e


@dataclass
class RateLimits:
    """The read and write limits of one app, and the counts behind them."""

    reads: list[RateLimitItem]
    writes: list[RateLimitItem]

    def __post_init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def retry_after(self, caller: str, write: bool) -> int | None:
        """Count one request of ``caller``; None when allowed, else seconds until it would be."""
        for item in self.writes if write else self.reads:
            if not self._limiter.hit(item, caller, "w" if write else "r"):
                reset, _ = self._limiter.get_window_stats(item, caller, "w" if write else "r")
                return max(1, math.ceil(reset - time.time()))
        return None


def _is_write(request: Request) -> bool:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    return not (request.method == "POST" and request.url.path.startswith(_READING_POSTS))


async def enforce_rate_limit(request: Request, caller: CallerDep) -> None:
    """429 with ``Retry-After`` once the caller's key has used up its read or write allowance."""
    limits: RateLimits | None = getattr(request.app.state, "rate_limits", None)
    if limits is None:
        return
    token = request.headers.get("authorization", "")
    who = (
        hashlib.sha256(token.encode()).hexdigest()
        if token
        else f"addr:{request.client.host if request.client else '-'}"
    )
    write = _is_write(request)
    wait = limits.retry_after(who, write)
    if wait is not None:
        kind = "write" if write else "read"
        raise HTTPException(
            status_code=429,
            detail=f"Too many {kind} requests for this API key; retry in {wait} s (Retry-After).",
            headers={"Retry-After": str(wait)},
        )
    del caller  # authenticated first: an unknown key is a 401, not a count
