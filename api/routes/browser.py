"""Neo4j Browser assets: the guide (``:play``) and the GraSS style (``:style``); no API key needed.

Browser fetches them from its own page (another origin) with extra headers (``Pragma``,
``Cache-Control``, and Sentry's tracing headers before it has read the server's settings), so each
answer allows any origin and the preflight ``OPTIONS`` allows the headers asked for. They are
static documents built from graphmem's own files, sent without credentials: no memory is read.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

from graphmem.api.schemas import ERROR_RESPONSES
from graphmem.browser.guide import DEFAULT_LIMIT, render_guide
from graphmem.browser.links import GUIDE_PATH, STYLE_PATH
from graphmem.browser.views import browser_views, style_sheet

# Its errors are JSON like every other route's, though its answer is HTML.
_ERROR_BODY = {"$ref": "#/components/schemas/ErrorBody"}
_JSON_ERRORS = {
    status: {**answer, "content": {"application/json": {"schema": _ERROR_BODY}}}
    for status, answer in ERROR_RESPONSES.items()
}
router = APIRouter(tags=["browser"], responses=_JSON_ERRORS)

_CORS = {"Access-Control-Allow-Origin": "*"}


@router.get(GUIDE_PATH, response_class=HTMLResponse)
def guide(
    request: Request,
    scope: Annotated[str | None, Query(description="The scope the views start on (default /).")] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Rows per view.")] = DEFAULT_LIMIT,
) -> HTMLResponse:
    """The Browser guide: apply the style, set the parameters, then one slide per saved view."""
    style_url = str(request.base_url).rstrip("/") + STYLE_PATH
    html = render_guide(browser_views(), style_url, scope, limit)
    return HTMLResponse(html, headers=_CORS)


@router.get(STYLE_PATH, response_class=PlainTextResponse)
def style() -> PlainTextResponse:
    """The GraSS style sheet: captions and colours by layer."""
    return PlainTextResponse(style_sheet(), headers=_CORS)


@router.options(GUIDE_PATH, include_in_schema=False)
@router.options(STYLE_PATH, include_in_schema=False)
def preflight(
    asked: Annotated[str, Header(alias="Access-Control-Request-Headers")] = "",
) -> Response:
    """Let Browser's page (another origin) fetch the assets with whatever headers it adds."""
    headers = {
        **_CORS,
        "Access-Control-Allow-Methods": "GET, OPTIONS",
        "Access-Control-Allow-Headers": asked or "Pragma, Cache-Control",
        "Access-Control-Max-Age": "600",
    }
    return Response(status_code=204, headers=headers)
