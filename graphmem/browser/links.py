"""The URLs and commands that open graphmem's views in Neo4j Browser (what ``graphmem browser`` prints)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from pydantic import BaseModel, ConfigDict

from graphmem.browser.guide import DEFAULT_LIMIT, params_command
from graphmem.errors import InvalidInputError
from graphmem.runtime.ports import port_answers
from graphmem.scopes import ROOT, normalize_scope

GUIDE_PATH = "/browser/guide.html"
STYLE_PATH = "/browser/style.grass"
# Hosts that mean "this machine"; Browser's default allowlist of guide hosts names only localhost.
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "0.0.0.0", "::", "localhost"})


class BrowserLinks(BaseModel):
    """Where the Browser, the guide and the style are, and the commands to paste into Browser."""

    model_config = ConfigDict(frozen=True)

    browser_url: str | None
    start_url: str | None
    connect_url: str
    guide_url: str
    style_url: str
    play_command: str
    style_command: str
    params_command: str


def default_api_url(host: str, port: int) -> str:
    """The URL a browser on this machine reaches the API at, for an API listening on ``host:port``.

    A loopback or wildcard address becomes ``localhost``: Browser fetches guides only from hosts
    in its allowlist, and before it has read the server's settings that is just ``localhost``
    (and guides.neo4j.com), whatever the server configures.
    """
    name = "localhost" if host in _LOOPBACK_HOSTS else host
    if ":" in name:  # an IPv6 address
        name = f"[{name}]"
    return f"http://{name}:{port}"


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
    browser_url: str | None,
    bolt_uri: str,
    user: str,
    database: str,
    api_url: str,
    scope: str | None = None,
) -> BrowserLinks:
    """Build the links for a Browser at ``browser_url`` (None: unknown) and the API at ``api_url``.

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
        start_url=f"{browser_url}?{query}" if browser_url else None,
        connect_url=connect_url,
        guide_url=guide_url,
        style_url=style_url,
        play_command=f":play {guide_url}",
        style_command=f":style {style_url}",
        params_command=":" + params_command(value, DEFAULT_LIMIT),
    )


def describe_links(links: BrowserLinks, user: str, password_hint: str) -> str:
    """The text ``graphmem browser`` prints: where to go, how to log in, what to paste."""
    lines = []
    if links.start_url:
        lines += ["Open Neo4j Browser (it fills in the connection, then plays the graphmem guide):"]
        lines += [f"  {links.start_url}"]
    else:
        lines += ["Open your Neo4j server's Browser (or pass --browser-url to get a ready-made link)."]
    lines += [
        f"Log in as {user}, password {password_hint} (connect URL {links.connect_url}).",
        "Then run in Browser (the guide offers the same, plus the saved views):",
        f"  {links.style_command}",
        f"  {links.params_command}",
        f"  {links.play_command}",
        "The style and the guide are served by the graphmem API (graphmem serve).",
    ]
    return "\n".join(lines)


def api_answers(api_url: str) -> bool:
    """Return True if something accepts connections where ``api_url`` points."""
    parts = urlsplit(api_url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return port_answers(port, parts.hostname or "localhost")


API_URL_FILE = "api-url"


def record_api_url(home: Path, url: str) -> None:
    """Note where ``graphmem serve`` answers (``<home>/api-url``), so ``graphmem browser`` run in
    another shell links to that port and not the default one. Failures to write are ignored."""
    try:
        home.mkdir(parents=True, exist_ok=True)
        (home / API_URL_FILE).write_text(url + "\n", encoding="utf-8")
    except OSError:
        pass


def forget_api_url(home: Path, url: str) -> None:
    """Remove the note of :func:`record_api_url` when it still names ``url`` (the server stopped)."""
    path = home / API_URL_FILE
    try:
        if path.read_text(encoding="utf-8").strip() == url:
            path.unlink()
    except OSError:
        pass


def recorded_api_url(home: Path) -> str | None:
    """The URL the last running ``graphmem serve`` noted, if any."""
    try:
        return (home / API_URL_FILE).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
