"""schemathesis ``--checks all`` against the served OpenAPI: no request answers 5xx, and every
answer is what the OpenAPI says (status, content type, headers, body), while what it calls
invalid is refused and what it calls valid is accepted.

The API runs with uvicorn on the session's Neo4j. A bounded number of examples per operation
(``EXAMPLES``, a fixed seed) keeps the run to a few minutes. It writes random memories into
random scopes of the session's graph, so it runs after every other test (``runs_last``). Two
routes act on the whole graph
(``forget`` with a broad filter, ``consolidate``): they are fuzzed with a key bound to a scope of
their own, so they cannot wipe or rewrite the memories other tests keep in the same database.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.api.app import create_app
from graphmem.memory import Memory
from tests.serving import serve

pytestmark = [pytest.mark.integration, pytest.mark.runs_last]

EXAMPLES = 12
SEED = 20261126
TAG = uuid.uuid4().hex[:8]
ADMIN_KEY, CONFINED_KEY = f"st-admin-{TAG}", f"st-confined-{TAG}"
WHOLE_GRAPH = r"^/v1/(forget|consolidate)"
# Requests the OpenAPI calls valid that the API refuses by design: Cypher a schema cannot parse,
# ready-made queries whose params depend on the name, a day window whose end precedes its start.
BEYOND_SCHEMA = r"^/v1/(cypher|triggers)"
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


@pytest.fixture(scope="module")
def served(memory: Memory) -> Iterator[str]:
    """The API's address, served by uvicorn in a thread."""
    app = create_app(
        memory,
        api_keys=[ADMIN_KEY, CONFINED_KEY],
        api_key_scopes={CONFINED_KEY: [f"/schemathesis-{TAG}"]},
        flush_idle_minutes=None,
    )
    with serve(app) as url:
        yield url


def schemathesis(address: str, key: str, *options: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(SCHEMATHESIS) if SCHEMATHESIS.exists() else shutil.which("schemathesis") or "schemathesis",
        "--no-color",
        "run",
        f"{address}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--request-timeout",
        "120",
        "--header",
        f"Authorization: Bearer {key}",
        *options,
    ]
    with tempfile.TemporaryDirectory() as workdir:  # its cache (.schemathesis/) stays out of the repo
        return subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False, cwd=workdir)


def test_schemathesis_finds_no_server_error_and_no_schema_mismatch(served: str) -> None:
    done = schemathesis(served, ADMIN_KEY, "--exclude-path-regex", f"{WHOLE_GRAPH}|{BEYOND_SCHEMA}")
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-3000:]


def test_schemathesis_on_routes_whose_rules_go_beyond_the_schema(served: str) -> None:
    done = schemathesis(
        served,
        ADMIN_KEY,
        "--include-path-regex",
        BEYOND_SCHEMA,
        "--exclude-checks",
        "positive_data_acceptance",
    )
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-3000:]


def test_schemathesis_on_the_whole_graph_routes_with_a_confined_key(served: str) -> None:
    # A confined key may not consolidate (403 by design), so "valid data is accepted" does not hold.
    done = schemathesis(
        served,
        CONFINED_KEY,
        "--include-path-regex",
        WHOLE_GRAPH,
        "--exclude-checks",
        "positive_data_acceptance",
    )
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-3000:]
