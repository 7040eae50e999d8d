"""When the client tries a request again, and how long it waits first: pure functions.

The rules, shared by :class:`~graphmem.client.Client` and :class:`~graphmem.client.AsyncClient`:

- **429, 503**: retried for every request. The server says it did nothing (a failed graphmem
  request changes nothing), so even a write is safe to send again.
- **502, 504**: retried only for idempotent requests (GETs and read-only POSTs such as recall): a
  gateway may have passed a write on before it failed.
- **Connection errors before the request was sent** (connect refused or timed out, no pooled
  connection free): retried for every request, since the server never saw it.
- **Errors after the request may have been sent** (read timeout, connection dropped mid-answer):
  retried only for idempotent requests; a write might have been applied, so the caller decides.
- **Every other status** (400, 401, 403, 404, 409, 413, 422, 500...): never retried; sending the
  same request again would give the same answer.

Waits grow exponentially with jitter; a ``Retry-After`` header (seconds or an HTTP date) is
honoured exactly, and when it asks for longer than ``max_retry_after`` the client gives up at once
instead of blocking the caller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

from graphmem.errors import InvalidInputError

ALWAYS_RETRIED = frozenset({429, 503})
IDEMPOTENT_RETRIED = frozenset({502, 504})

# Raised before a single byte of the request reached the server.
_NOT_SENT: tuple[type[Exception], ...] = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# Might have happened after the server got (and acted on) the request.
_MAYBE_SENT: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently the client retries.

    ``retries`` is the number of retries after the first attempt (0 turns retrying off). Without a
    ``Retry-After`` header the wait before retry ``n`` (0-based) is drawn from
    ``[d/2, d]`` with ``d = min(base_delay * 2**n, max_delay)``.
    """

    retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.retries < 0 or self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise InvalidInputError("RetryPolicy: retries and delays must be 0 or more.")


def retry_after_seconds(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for, in seconds (delta-seconds or an HTTP date).

    None when there is no header or it cannot be read; a date in the past means 0.
    """
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff_delay(attempt: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """Seconds to wait before retry ``attempt`` (0 for the first) when the server named no time.

    "Equal jitter": half the exponential delay is fixed, half random, so clients that failed
    together do not come back together, and none retries almost at once.
    """
    ceiling = min(policy.base_delay * 2.0**attempt, policy.max_delay)
    return ceiling / 2.0 + rand() * ceiling / 2.0


def retryable_status(status: int, idempotent: bool) -> bool:
    """True if an answer with this status is worth sending again (see the module's rules)."""
    return status in ALWAYS_RETRIED or (idempotent and status in IDEMPOTENT_RETRIED)


def retryable_exception(error: Exception, idempotent: bool) -> bool:
    """True if a request that failed with this transport error may be sent again."""
    if isinstance(error, _NOT_SENT):
        return True
    return idempotent and isinstance(error, _MAYBE_SENT)


def delay_after_response(
    response: httpx.Response,
    attempt: int,
    policy: RetryPolicy,
    idempotent: bool,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """The wait before retrying after this error answer, or None to give up and raise."""
    if attempt >= policy.retries or not retryable_status(response.status_code, idempotent):
        return None
    asked = retry_after_seconds(response.headers)
    if asked is None:
        return backoff_delay(attempt, policy, rand)
    return asked if asked <= policy.max_retry_after else None


def delay_after_exception(
    error: Exception,
    attempt: int,
    policy: RetryPolicy,
    idempotent: bool,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """The wait before retrying after this transport error, or None to give up and raise."""
    if attempt >= policy.retries or not retryable_exception(error, idempotent):
        return None
    return backoff_delay(attempt, policy, rand)
