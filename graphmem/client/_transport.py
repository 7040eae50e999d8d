"""What the sync and async clients share: a request description, headers, and error mapping.

The server answers errors as ``{"error": {"code": ..., "message": ...}}``; the client raises the
exception of :mod:`graphmem.errors` whose ``code`` matches, so ``except NotFoundError`` works the
same against the library and against the REST API.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from graphmem import errors
from graphmem.errors import (
    APIError,
    APIUnreachableError,
    AuthenticationError,
    DatabaseUnavailableError,
    GraphmemError,
    InvalidInputError,
    NotFoundError,
    TextTooLongError,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

USER_AGENT = "graphmem-python-client"

# When the server's code names no exception of graphmem.errors (or the body is not graphmem's).
_BY_STATUS: dict[int, type[GraphmemError]] = {
    401: AuthenticationError,
    404: NotFoundError,
    413: TextTooLongError,
    422: InvalidInputError,
    503: DatabaseUnavailableError,
}
# Raised by the client itself; a server never answers with these codes.
_CLIENT_SIDE: frozenset[type[GraphmemError]] = frozenset({GraphmemError, APIError, APIUnreachableError})
# Starlette's answer for a path no route matches (as opposed to graphmem's "no memory has this id").
_NO_ROUTE = "Not Found"


@dataclass(frozen=True)
class Call(Generic[T]):
    """One REST call: what to send, how to read the answer, and whether resending it is safe.

    ``idempotent`` marks requests that can be resent even if the server may have received them
    (reads, including read-only POSTs); ``answers`` lists error statuses whose body is still an
    answer (health's 503 carries a report).
    """

    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    json: Any = None
    params: Mapping[str, str | int | bool] | None = None
    idempotent: bool = False
    answers: frozenset[int] = field(default_factory=frozenset)


def api_base(url: str) -> str:
    """The ``/v1`` root for a server URL (``http://host:8000``; a trailing ``/v1`` is accepted too)."""
    base = url.strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise InvalidInputError(f"Invalid graphmem URL {url!r}: give one like 'http://127.0.0.1:8000'.")
    if base.endswith("/v1"):
        base = base[: -len("/v1")]
    return base + "/v1"


def client_headers(api_key: str | None) -> dict[str, str]:
    """The headers every request carries (the bearer key when one is given)."""
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def model_parser(model: type[M]) -> Callable[[httpx.Response], M]:
    """Parse a response body into ``model`` (APIError when it does not fit, e.g. another version)."""

    def parse(response: httpx.Response) -> M:
        try:
            return model.model_validate_json(response.content)
        except ValidationError as e:
            raise APIError(
                f"The answer of {response.request.method} {response.request.url.path} does not fit "
                f"{model.__name__} ({e.error_count()} errors, first: {e.errors()[0]['msg']}); is the "
                "server the same graphmem version as this client?",
                status=response.status_code,
                code="unexpected_response",
            ) from e

    return parse


def no_content(_: httpx.Response) -> None:
    """For calls answered with 204 and no body."""
    return None


def _errors_by_code() -> dict[str, type[GraphmemError]]:
    found: dict[str, type[GraphmemError]] = {}
    pending: list[type[GraphmemError]] = [GraphmemError]
    while pending:
        kind = pending.pop()
        pending.extend(kind.__subclasses__())
        if kind.__module__ == errors.__name__ and kind not in _CLIENT_SIDE:
            found.setdefault(kind.code, kind)
    return found


def _read_error(response: httpx.Response) -> tuple[str, str]:
    """The server's error code and message; for a body that is not graphmem's, a generic pair."""
    try:
        detail = response.json()["error"]
        return str(detail["code"]), str(detail["message"])
    except (ValueError, KeyError, TypeError):
        snippet = response.text.strip()[:300] or response.reason_phrase
        return "http_error", f"HTTP {response.status_code} from {response.request.url}: {snippet}"


def error_from_response(response: httpx.Response) -> GraphmemError:
    """The graphmem exception for an error answer: by the server's code, else by status.

    401 AuthenticationError, 404 NotFoundError, 413 TextTooLongError, 422 InvalidInputError,
    503 DatabaseUnavailableError (or WriteQueueFullError by code); anything else APIError with
    ``status`` and ``code``. A 5xx other than 503 is always APIError: it is the server's fault.
    """
    status = response.status_code
    code, message = _read_error(response)
    request = response.request
    if status == 404 and message == _NO_ROUTE:
        return APIError(
            f"{request.method} {request.url.path} is not a route of this server; it may run an older "
            "graphmem than this client.",
            status=status,
            code="no_such_route",
        )
    kind: type[GraphmemError] | None = None
    if status < 500 or status == 503:
        kind = _errors_by_code().get(code) or _BY_STATUS.get(status)
    if kind is None:
        return APIError(message, status=status, code=code)
    try:
        return kind(message)
    except TypeError:  # an exception that needs more than a message
        return APIError(message, status=status, code=code)


def unreachable(error: Exception, call: Call[Any], base_url: str, attempts: int) -> APIUnreachableError:
    """The error raised when the server could not be reached (or answered too late) in ``attempts``."""
    where = f"{call.method} {base_url}{call.path}"
    message = f"Could not reach graphmem: {where} failed after {attempts} attempt(s): {error!r}."
    if isinstance(error, httpx.ConnectError | httpx.ConnectTimeout):
        message += " Check the URL and that the server runs (`graphmem serve`)."
    elif not call.idempotent:
        message += " The request may have been applied; check (get or recall) before sending it again."
    else:
        message += " Try again later, or raise the client's timeout."
    return APIUnreachableError(message)
