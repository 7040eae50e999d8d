"""The URLs and commands that open graphmem's views in Neo4j Browser (what ``graphmem browser`` prints)."""

from __future__ import annotations

from urllib.parse import quote, urlencode, urlsplit

from pydantic import BaseModel, ConfigDict

from graphmem.browser.guide import DEFAULT_LIMIT, params_command
from graphmem.errors import InvalidInputError
from graphmem.scopes import ROOT, normalize_scope

GUIDE_PATH = "/browser/guide.html"
STYLE_PATH = "/browser/style.grass"


class BrowserLinks(BaseModel):
    """Where the Browser, the guide and the style are, and the commands to paste into Browser."""

    model_config = ConfigDict(frozen=True)

    browser_url: str
    start_url: str
    connect_url: str
    guide_url: str
    style_url: str
    play_command: str
    style_command: str
    params_command: str


def api_base_url(url: str) -> str:
    """``url`` without a trailing slash, checked to be an http(s) URL with a host.

    Raises:
        InvalidInputError: it is not.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInputError(
            f"{url!r} is not an http(s) URL of the graphmem API, e.g. http://127.0.0.1:8000"
        )
    return url.rstrip("/")


def browser_links(
    browser_url: str, bolt_uri: str, user: str, database: str, api_url: str, scope: str | None = None
) -> BrowserLinks:
    """Build the links for a Browser at ``browser_url`` and the graphmem API at ``api_url``.

    ``start_url`` opens Browser with the connection filled in and plays the guide (Browser's
    ``cmd=play&arg=<url>`` query parameters); the guide sets ``scope`` (default: the root).

    Raises:
        InvalidInputError: ``api_url`` is not an http(s) URL or ``scope`` is not a scope path.
    """
    base = api_base_url(api_url)
    value = normalize_scope(scope)
    # Browser reads ``arg`` up to the next '&', so the guide URL carries at most one parameter.
    guide_url = base + GUIDE_PATH + ("" if value == ROOT else "?" + urlencode({"scope": value}, safe="/"))
    style_url = base + STYLE_PATH
    bolt = urlsplit(bolt_uri)
    connect_url = f"{bolt.scheme}://{quote(user, safe='')}@{bolt.netloc.rpartition('@')[2]}"
    query = urlencode({"dbms": connect_url, "db": database, "cmd": "play", "arg": guide_url})
    return BrowserLinks(
        browser_url=browser_url,
        start_url=f"{browser_url}?{query}",
        connect_url=connect_url,
        guide_url=guide_url,
        style_url=style_url,
        play_command=f":play {guide_url}",
        style_command=f":style {style_url}",
        params_command=":" + params_command(value, DEFAULT_LIMIT),
    )
