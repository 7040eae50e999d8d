"""Request bodies whose JSON text is not Unicode (a lone surrogate escape) are refused with a 422.

JSON may spell half of a UTF-16 pair (``"\\ud800"``) on its own; Python decodes it to a string that
cannot be encoded as UTF-8, so Neo4j can never receive it. Refused here, before any route runs, it
is one clear 422 on every route, and a background batch is not accepted (202) only to fail later.
Only bodies that contain a ``\\ud`` escape at all (or come in UTF-16 or UTF-32) are parsed a
second time.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.api.errors import error_response

_ESCAPE = (b"\\ud", b"\\uD")


def lone_surrogate_at(value: Any, where: str = "body") -> str | None:
    """Where in the decoded JSON ``value`` a string (or key) holds a lone surrogate; None if nowhere."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = lone_surrogate_at(key, f"{where}.{key!r} (a key)") or lone_surrogate_at(
                item, f"{where}.{key}"
            )
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate_at(item, f"{where}.{index}")
            if found:
                return found
    return None


def _problem(body: bytes) -> str | None:
    utf8 = json.detect_encoding(body).startswith("utf-8")  # JSON may come as UTF-16 or UTF-32 too
    if utf8 and not any(escape in body for escape in _ESCAPE):
        return None
    try:
        decoded = json.loads(body)
    except ValueError:
        return None  # not JSON: the route's own validation answers
    where = lone_surrogate_at(decoded)
    if where is None:
        return None
    where = where.removeprefix("body.") if where != "body" else "the body"
    return (
        f"Invalid request: {where} holds a lone surrogate escape (half of a UTF-16 pair, e.g. "
        "'\\ud800'), which is not Unicode text: send whole characters (a pair such as "
        "'\\ud83d\\ude00', or the character itself)."
    )


class UnicodeBodyMiddleware:
    """Answers 422 ``invalid_input`` to a request body whose JSON holds a lone surrogate."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        problem = _problem(b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request"))
        if problem is not None:
            await error_response(422, "invalid_input", problem)(scope, receive, send)
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)
