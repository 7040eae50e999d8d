"""The one place HTTP status codes are chosen: graphmem errors and validation errors as JSON.

Every error answers ``{"error": {"code": "...", "message": "..."}}``.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.errors import (
    DatabaseBusyError,
    DatabaseUnavailableError,
    ForbiddenQueryError,
    GraphmemError,
    InvalidInputError,
    InvalidQueryError,
    JobBusyError,
    NotFoundError,
    QueryTimeoutError,
    ScopeForbiddenError,
    TextTooLongError,
    WriteQueueFullError,
)

log = logging.getLogger(__name__)

_STATUS: list[tuple[type[GraphmemError], int]] = [
    (TextTooLongError, 413),
    (InvalidQueryError, 400),
    (InvalidInputError, 422),
    (ForbiddenQueryError, 403),
    (ScopeForbiddenError, 403),
    (QueryTimeoutError, 408),
    (NotFoundError, 404),
    (DatabaseUnavailableError, 503),  # DatabaseBusyError too (with Retry-After)
    (WriteQueueFullError, 503),
    (JobBusyError, 409),
]


def status_for(error: GraphmemError) -> int:
    """The HTTP status for a graphmem error (500 for anything unexpected)."""
    for kind, status in _STATUS:
        if isinstance(error, kind):
            return status
    return 500


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """A JSON error in the contract's shape."""
    return JSONResponse(status_code=status, content={"error": {"code": code, "message": message}})


def _describe(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
    return "Invalid request: " + "; ".join(parts)


UNEXPECTED_MESSAGE = (
    "The server failed on this request (a bug, logged on the server); nothing more is known. "
    "Retry it with the same Idempotency-Key; if it keeps failing, report it."
)


class UnexpectedErrorMiddleware:
    """Any exception no handler knows becomes a JSON 500 in the contract's shape.

    Starlette's own last resort answers plain text and re-raises, which makes uvicorn close the
    connection; here the error is logged and answered, and the connection stays usable.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # the last resort: whatever it is, the client gets JSON
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"), exc_info=exc)
            if started:
                raise  # half an answer is out; nothing better can be sent
            await error_response(500, "internal_error", UNEXPECTED_MESSAGE)(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn exceptions into contract-shaped JSON errors."""
    app.add_middleware(UnexpectedErrorMiddleware)

    @app.exception_handler(GraphmemError)
    async def graphmem_error(_: Request, exc: GraphmemError) -> JSONResponse:
        status = status_for(exc)
        if status == 500:
            log.exception("unexpected graphmem error", exc_info=exc)
        response = error_response(status, exc.code, str(exc))
        if isinstance(exc, DatabaseBusyError):
            response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "invalid_input", _describe(exc))

    # Tenancy/hardening (issue 12): anything unexpected is a JSON 500 in the contract's shape; the
    # detail goes to the server log only (it may quote stored values).
    @app.exception_handler(Exception)
    async def unexpected_error(_: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error", exc_info=exc)
        return error_response(500, "internal_error", "Internal error; the server log has the details.")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {401: "unauthorized", 404: "not_found", 405: "method_not_allowed", 429: "rate_limited"}
        response = error_response(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        if exc.status_code == 405:  # Starlette names the methods of the first route on the path only
            response.headers["Allow"] = ", ".join(allowed_methods(request))
        return response


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app answers on the request's path (for ``Allow`` on a 405)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Route) and route.methods and route.path_regex.match(request.url.path):
            methods |= route.methods
    return sorted(methods)
