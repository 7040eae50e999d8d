"""When to retry a failed provider call and how long to wait first: pure functions."""

from __future__ import annotations

from collections.abc import Mapping


def is_retryable_status(status: int, headers: Mapping[str, str]) -> bool:
    """True for a response worth trying again: timeout (408), rate limit (429), server error or
    overload (5xx, 529); the server's ``x-should-retry`` header overrides the status when present.
    """
    verdict = headers.get("x-should-retry")
    if verdict in ("true", "false"):
        return verdict == "true"
    return status in (408, 429) or status >= 500


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """How long the server asked us to wait (``retry-after-ms`` or ``retry-after`` in seconds).

    None when it did not say, or said it as an HTTP date (rare; exponential backoff covers it).
    """
    for header, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(header)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue
        if seconds >= 0:
            return seconds
    return None


def backoff_delay(attempt: int, *, base: float, cap: float, retry_after: float | None = None) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (0 for the first): ``base * 2**attempt``,
    at least what the server asked for, at most ``cap``.

    The cap wins over the server's ask: callers have a deterministic fallback and would rather
    use it than wait long.
    """
    delay = base * 2.0**attempt
    if retry_after is not None:
        delay = max(delay, retry_after)
    return max(0.0, min(delay, cap))
