"""X3: the Neo4j Browser views, on the real Neo4j and, for the end-to-end test, a real headless Chromium.

A small graph is written through the Memory facade (a supersession, entities, a decision). The
semantic and schema memories a consolidation would distil, and one month-old memory, are created
with a probe of the test's own: the write path makes only fresh episodic memories.

The end-to-end test opens the managed test Neo4j's Browser with the link ``graphmem browser``
prints, logs in, follows the guide served by the graphmem API (style, parameters, first view),
and checks the drawn graph: node colours and captions from the style, and the layer colours in
the screenshot's pixels (saved to tests/artifacts/browser.png). It skips without
/usr/bin/chromium (``apt-get install chromium``) or the ``playwright`` package.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import neo4j
import numpy as np
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.browser.links import browser_links, default_api_url, record_api_url
from graphmem.browser.views import browser_views, style_sheet
from graphmem.cli import main as cli
from graphmem.connect import Neo4jTarget
from graphmem.memory import Memory
from graphmem.runtime.ports import LOOPBACK, free_port
from graphmem.store.catalog import default_catalog
from tests.serving import port_of, serve

pytestmark = pytest.mark.integration

CHROMIUM = Path(os.environ.get("GRAPHMEM_TEST_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
T0 = datetime(2024, 1, 1, tzinfo=UTC)

POSTGRES = "We use PostgreSQL for the user database."
MYSQL = "We migrated the user database to MySQL."
LISBON = "Alice went to Lisbon with Bob."
KUBERNETES = "We decided to use Kubernetes for deployments because it scales."
SEMANTIC = "The team's infrastructure choices favour managed, scalable services."
SCHEMA = "Infrastructure decisions follow a pattern: start simple, migrate when load grows."
OLD_NOTE = "An old note from last month about the office plants."


def _grass_colours() -> dict[str, str]:
    """``{"node.Entity": "#F79767", "relationship.CONTRADICTS": "#E0393E", ...}`` from style.grass."""
    rules = re.findall(r"^(\S+) \{([^}]*)\}", style_sheet(), re.MULTILINE)
    found = {
        selector: re.search(r"^\s*color: (#[0-9A-Fa-f]{6});", body, re.MULTILINE) for selector, body in rules
    }
    return {selector: match.group(1) for selector, match in found.items() if match}


COLOURS = _grass_colours()


@pytest.fixture(scope="module")
def driver(neo4j_target: Neo4jTarget) -> Iterator[neo4j.Driver]:
    """A driver of the test's own, for the probes and the views."""
    with neo4j.GraphDatabase.driver(neo4j_target.uri, auth=(neo4j_target.user, neo4j_target.password)) as d:
        yield d


@pytest.fixture(scope="module")
def graph(memory: Memory, driver: neo4j.Driver) -> dict[str, str]:
    """Write the small graph in a scope of this module's own; return its ids by name (and the scope)."""
    scope = f"/test/browser-{uuid.uuid4().hex[:12]}"
    old = memory.remember(POSTGRES, scope=scope, occurred_at=T0).memory.id
    new = memory.remember(MYSQL, scope=scope, occurred_at=datetime(2024, 3, 1, tzinfo=UTC))
    assert f"superseded:{old}" in new.actions
    lisbon = memory.remember(LISBON, scope=scope)
    kubernetes = memory.remember(KUBERNETES, scope=scope)
    assert lisbon.actions == ["created"] and kubernetes.actions == ["created"]
    sibling = memory.remember("Dana keeps bees.", scope=scope + "-sibling").memory.id
    ids = {
        "scope": scope, "old": old, "new": new.memory.id, "lisbon": lisbon.memory.id,
        "kubernetes": kubernetes.memory.id, "sibling": sibling, "semantic": str(uuid.uuid4()),
        "schema": str(uuid.uuid4()), "old_note": str(uuid.uuid4()),
    }  # fmt: skip
    # What a consolidation would make of the episodes, and a memory written a month ago.
    driver.execute_query(
        "CREATE (s:Memory:SemanticMemory {id: $semantic, text: $semantic_text, layer: 'semantic', "
        "  scope: $scope, status: 'active', created_at: datetime()}) "
        "CREATE (k:Memory:SchemaMemory {id: $schema, text: $schema_text, layer: 'schema', "
        "  scope: $scope, status: 'active', created_at: datetime()}) "
        "CREATE (:Memory:EpisodicMemory {id: $old_note, text: $old_text, layer: 'episodic', "
        "  scope: $scope, status: 'active', created_at: datetime() - duration('P30D')}) "
        "CREATE (k)-[:DERIVED_FROM]->(s) "
        "WITH s MATCH (e:Memory) WHERE e.id IN $episodes CREATE (s)-[:DERIVED_FROM]->(e)",
        semantic=ids["semantic"], schema=ids["schema"], old_note=ids["old_note"], scope=scope,
        semantic_text=SEMANTIC, schema_text=SCHEMA, old_text=OLD_NOTE,
        episodes=[new.memory.id, kubernetes.memory.id],
    )  # fmt: skip
    return ids


def _nodes(value: Any) -> list[neo4j.graph.Node]:
    """Every node in a row value (nodes, paths, lists and maps of them), as Browser would draw them."""
    if isinstance(value, neo4j.graph.Node):
        return [value]
    if isinstance(value, neo4j.graph.Path):
        return list(value.nodes)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [node for item in items for node in _nodes(item)]


def _texts(value: Any) -> set[str]:
    """The ``text`` or ``name`` of every node in a row value."""
    return {node.get("text") or node.get("name") for node in _nodes(value)}


def _view(driver: neo4j.Driver, name: str, scope: str, **params: Any) -> list[dict[str, Any]]:
    """Run a view as Browser does (its nodes and paths as they are), with the guide's defaults."""
    query = default_catalog().get(f"browser/{name}")
    given = {"scope": scope, "limit": 100, "id": None, **params}
    records, _, _ = driver.execute_query(
        query.text,
        {k: v for k, v in given.items() if k in query.parameters},
        routing_=neo4j.RoutingControl.READ,
    )
    return [dict(zip(record.keys(), record.values(), strict=True)) for record in records]


def test_user_graph_shows_the_scope_with_entities_decisions_and_belief_edges(
    driver: neo4j.Driver, graph: dict[str, str]
) -> None:
    rows = _view(driver, "user_graph", graph["scope"])
    memories = {row["memory"]["text"] for row in rows}
    assert memories == {POSTGRES, MYSQL, LISBON, KUBERNETES, SEMANTIC, SCHEMA, OLD_NOTE}
    everything = _texts(rows)
    assert {"Alice", "Lisbon", "Bob", "MySQL"} <= everything
    by_text = {row["memory"]["text"]: row for row in rows}
    assert by_text[KUBERNETES]["decisions"], "the decision recorded in the memory is drawn with it"
    assert POSTGRES in _texts(by_text[MYSQL]["beliefs"])
    assert "Dana keeps bees." not in everything, "a sibling scope sharing the prefix stays out"
    assert len(_view(driver, "user_graph", graph["scope"], limit=2)) == 2


def test_contradiction_chain_starts_at_the_newest_belief(driver: neo4j.Driver, graph: dict[str, str]) -> None:
    rows = _view(driver, "contradiction_chains", graph["scope"])
    assert [row["head"]["text"] for row in rows] == [MYSQL]
    assert _texts(rows[0]["chains"]) == {MYSQL, POSTGRES}


def test_schema_lineage_goes_down_to_the_episodes(driver: neo4j.Driver, graph: dict[str, str]) -> None:
    in_scope = _view(driver, "schema_lineage", graph["scope"])
    by_id = _view(driver, "schema_lineage", "/", id=graph["schema"])
    for rows in (in_scope, by_id):
        assert [row["top"]["text"] for row in rows] == [SCHEMA]
        assert _texts(rows[0]["lineage"]) == {SCHEMA, SEMANTIC, MYSQL, KUBERNETES}
    assert _view(driver, "schema_lineage", "/", id=graph["new"]) == []


def test_changed_this_week_leaves_last_month_out(driver: neo4j.Driver, graph: dict[str, str]) -> None:
    rows = _view(driver, "changed_this_week", graph["scope"])
    by_text = {row["memory"]["text"]: row for row in rows}
    assert OLD_NOTE not in by_text
    assert {POSTGRES, MYSQL, LISBON, KUBERNETES} <= set(by_text)
    assert MYSQL in _texts(by_text[POSTGRES]["superseded_by"])


def test_api_serves_the_style_and_a_guide_of_every_view_without_a_key(memory: Memory) -> None:
    with TestClient(create_app(memory, api_keys=["secret"], flush_idle_minutes=None)) as client:
        style = client.get("/browser/style.grass")
        assert style.status_code == 200 and style.text == style_sheet()
        assert style.headers["access-control-allow-origin"] == "*"
        guide = client.get("/browser/guide.html", params={"scope": "/user/alice"})
        assert guide.status_code == 200 and guide.headers["content-type"].startswith("text/html")
        assert guide.text.count("<slide") == len(browser_views()) + 2
        assert ":style http://testserver/browser/style.grass" in guide.text
        assert ":params {scope: &#x27;/user/alice&#x27;, limit: 100, id: null}" in guide.text
        for view in browser_views():
            assert f'data-view="{view.name}">' in guide.text
        legend = re.findall(r"background:(#[0-9A-F]{6});[^>]*></span><b>(\w+)</b>", guide.text)
        assert len(legend) == 8, "the legend names the five node kinds and three belief edges"
        for colour, name in legend:
            kind = "relationship" if name.isupper() else "node"
            assert COLOURS[f"{kind}.{name}"] == colour, f"the legend's {name} is not coloured as in the style"
        preflight = client.options(
            "/browser/guide.html",
            headers={
                "Origin": "http://127.0.0.1:7474",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "pragma,cache-control,sentry-trace",
            },
        )
        assert preflight.status_code == 204
        assert preflight.headers["access-control-allow-headers"] == "pragma,cache-control,sentry-trace"
        bad = client.get("/browser/guide.html", params={"scope": "/user/al'ice"})
        assert bad.status_code == 422 and "Invalid scope" in bad.json()["error"]["message"]
        assert client.post("/v1/recall", json={"query": "x"}).status_code == 401


def test_cli_prints_the_links_and_commands_for_an_external_server(tmp_path: Path) -> None:
    env = {
        "GRAPHMEM_NEO4J_URI": "bolt://db.internal:7687",
        "GRAPHMEM_PORT": str(free_port()),
        "GRAPHMEM_HOME": str(tmp_path),
    }
    result = CliRunner().invoke(
        cli,
        ["browser", "--scope", "/user/alice", "--browser-url", "http://db.internal:7474/browser/"],
        env=env,
    )
    assert result.exit_code == 0, result.output
    port = env["GRAPHMEM_PORT"]
    assert (
        "http://db.internal:7474/browser/?dbms=bolt%3A%2F%2Fneo4j%40db.internal%3A7687&db=neo4j"
        in result.output
    )
    assert f":play http://localhost:{port}/browser/guide.html?scope=/user/alice" in result.output
    assert f":style http://localhost:{port}/browser/style.grass" in result.output
    assert f"Nothing answers at http://localhost:{port}" in result.output


def test_cli_links_follow_the_port_the_api_was_served_on(tmp_path: Path) -> None:
    """`scripts/run --port 18800` (graphmem serve --port) notes its URL; `graphmem browser` in
    another shell links there, and GRAPHMEM_API_URL or --api-url override it."""
    env = {"GRAPHMEM_NEO4J_URI": "bolt://db.internal:7687", "GRAPHMEM_HOME": str(tmp_path)}
    args = ["browser", "--browser-url", "http://db.internal:7474/browser/"]
    record_api_url(tmp_path, default_api_url("127.0.0.1", 18800))
    served = CliRunner().invoke(cli, args, env=env)
    assert served.exit_code == 0, served.output
    assert ":play http://localhost:18800/browser/guide.html" in served.output
    assert "localhost:8000" not in served.output
    told = CliRunner().invoke(cli, args, env={**env, "GRAPHMEM_API_URL": "http://localhost:18900"})
    assert ":style http://localhost:18900/browser/style.grass" in told.output


# --- the end-to-end test in Chromium ------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Chromium driven by Playwright (Debian's browser: no download)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (or set GRAPHMEM_TEST_CHROMIUM)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is missing: pip install -e '.[test]'"
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def api_url(memory: Memory) -> Iterator[str]:
    """The graphmem API on a free port, served by uvicorn in a thread."""
    with serve(create_app(memory, flush_idle_minutes=None)) as url:
        yield default_api_url(LOOPBACK, port_of(url))


_NODES_JS = """frame => Array.from(frame.querySelectorAll('svg g.node')).map(g => ({
    fill: g.querySelector('circle.b-outline').getAttribute('fill').toUpperCase(),
    caption: Array.from(g.querySelectorAll('text.caption')).map(t => t.textContent.trim()).join(' '),
    at: g.getAttribute('transform'),
}))"""
_VIEWPORT_JS = """frame => Array.from(frame.querySelectorAll('svg g'))
    .map(g => g.getAttribute('transform') || '').join(';')"""
_EDGE_FILLS_JS = """frame => Array.from(frame.querySelectorAll('svg g.relationship path.b-outline'))
    .map(p => p.getAttribute('fill').toUpperCase())"""


def _settled_nodes(
    frame: Any, count: int, timeout: float = 30.0, watch: str = _NODES_JS
) -> list[dict[str, str]]:
    """The drawn nodes once ``count`` of them are there and what ``watch`` returns stops changing.

    By default that is the nodes themselves: the force layout has come to rest.
    """
    deadline, previous = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        nodes: list[dict[str, str]] = frame.evaluate(_NODES_JS)
        positions = [n["at"] for n in nodes] + [frame.evaluate(watch)]
        if len(nodes) >= count and positions == previous:
            return nodes
        previous = positions
        time.sleep(0.5)
    raise AssertionError(f"the graph did not settle with {count} nodes: {frame.evaluate(_NODES_JS)}")


def _shows(nodes: list[dict[str, str]], text: str, selector: str) -> bool:
    """True if a node styled like ``selector`` is captioned with the start of ``text``."""
    for node in nodes:
        caption = " ".join(node["caption"].split()).rstrip("…").strip()
        if node["fill"] == COLOURS[selector] and caption and text.startswith(caption):
            return True
    return False


def _pixels_near(png: Path, colour: str, tolerance: int = 6) -> int:
    """How many pixels of the image are within ``tolerance`` of ``colour`` in every channel."""
    image = pytest.importorskip("PIL.Image", reason="Pillow is missing: pip install '.[test]'")
    target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)
    with image.open(png) as picture:
        rgb = np.frombuffer(picture.convert("RGB").tobytes(), dtype=np.uint8).reshape(-1, 3)
    return int(np.all(np.abs(rgb.astype(np.int16) - target) <= tolerance, axis=1).sum())


def _run_editor(page: Any) -> None:
    page.click('[data-testid="editor-Run"]')


def test_browser_draws_the_user_graph_in_the_graphmem_style(
    chromium: Any,
    api_url: str,
    graph: dict[str, str],
    driver: neo4j.Driver,
    neo4j_target: Neo4jTarget,
    neo4j_http_url: str | None,
) -> None:
    if neo4j_http_url is None:
        pytest.skip("the Browser URL of an external Neo4j is unknown; set GRAPHMEM_TEST_NEO4J_HTTP_URL")
    links = browser_links(
        f"{neo4j_http_url}/browser/", neo4j_target.uri, neo4j_target.user, neo4j_target.database,
        api_url, graph["scope"],
    )  # fmt: skip
    expected_nodes = len({node.element_id for node in _nodes(_view(driver, "user_graph", graph["scope"]))})
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    try:
        # The link graphmem browser prints: connection filled in, the guide played at start.
        page.goto(links.start_url or "")
        assert page.input_value('[data-testid="username"]') == neo4j_target.user
        page.fill('[data-testid="password"]', neo4j_target.password)
        page.click('[data-testid="connect"]')
        page.wait_for_selector("text=You are connected as user")
        frames = page.locator('[data-testid="frame"]')
        guide = frames.filter(has=page.locator('[data-testid="carousel"]'))
        guide.locator('pre.runnable[data-step="style"]').click()
        _run_editor(page)
        frames.filter(has_text=f":style {api_url}").locator("text=node.SchemaMemory").wait_for()
        guide.locator('pre.runnable[data-step="params"]').click()
        _run_editor(page)
        page.wait_for_selector("text=Successfully set your parameters")
        guide.locator('[data-testid="nextSlide"]').click()
        guide.locator('pre.runnable[data-view="browser/user_graph"]').click()
        _run_editor(page)
        result = frames.first
        result.locator("svg g.node").first.wait_for()
        nodes = _settled_nodes(result, expected_nodes)
        # Full screen, zoomed to fit: the screenshot doubles as the one in docs/browser-views.png.
        result.locator('button[title="Fullscreen"]').click()
        result.locator('button[aria-label="zoom-to-fit"]').click()
        _settled_nodes(result, expected_nodes, watch=_VIEWPORT_JS)
        ARTIFACTS.mkdir(exist_ok=True)
        screenshot = ARTIFACTS / "browser.png"
        result.screenshot(path=str(screenshot))
        edge_fills = set(result.evaluate(_EDGE_FILLS_JS))
        result.locator('button[title="Close fullscreen"]').click()
        # With the server's settings read, Browser also fetches from 127.0.0.1 (the managed conf's
        # allowlist; before that only from localhost).
        loopback_style = api_url.replace("localhost", LOOPBACK) + "/browser/style.grass"
        page.locator('[data-testid="activeEditor"]').click()
        page.keyboard.insert_text(f":style {loopback_style}")
        _run_editor(page)
        frames.filter(has_text=f":style {loopback_style}").locator("text=node.SchemaMemory").wait_for()
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "browser-failure.png"), full_page=True)
        raise
    finally:
        page.close()

    assert len(nodes) == expected_nodes
    # The belief it replaced is greyed: superseded memories carry the SupersededMemory label.
    assert _shows(nodes, MYSQL, "node.Memory") and _shows(nodes, POSTGRES, "node.SupersededMemory")
    assert _shows(nodes, SEMANTIC, "node.SemanticMemory") and _shows(nodes, SCHEMA, "node.SchemaMemory")
    assert _shows(nodes, "Alice", "node.Entity") and _shows(nodes, "Lisbon", "node.Entity")
    assert _shows(nodes, KUBERNETES, "node.Decision")
    assert {COLOURS[f"relationship.{t}"] for t in ("SUPERSEDES", "CONTRADICTS", "DERIVED_FROM")} <= edge_fills
    for selector in (
        "node.EpisodicMemory",
        "node.SemanticMemory",
        "node.SchemaMemory",
        "node.Entity",
        "node.Decision",
    ):
        assert _pixels_near(screenshot, COLOURS[selector]) > 300, (
            f"{selector}'s colour is not in {screenshot}"
        )
