"""The README runs as printed: every ```bash block that calls the API with curl and every ```python
block is executed against the real stack (the API on a free port, over the session's Neo4j), and
every ```json block parses. Only the host and port are changed (``127.0.0.1:8000`` and
``localhost:8000`` become the test server's). A block preceded by ``<!-- doc-test: skip -->`` is
not run; blocks that install, start servers or run the suite have no curl and are not run either.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphmem.api.app import create_app
from graphmem.connect import Neo4jTarget
from graphmem.memory import Memory
from graphmem.runtime.ports import LOOPBACK
from tests.serving import port_of, serve

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SKIP_MARK = "<!-- doc-test: skip -->"
_FENCE = re.compile(r"^```(\w*)\s*$")
_DOCUMENTED_API = re.compile(r"(?:127\.0\.0\.1|localhost):8000")
# curl fails on an HTTP error status (the README's `curl -s` would print the error and go on)
_STRICT_CURL = 'curl() { command curl --fail-with-body --show-error --max-time 300 "$@"; echo; }\n'


@dataclass(frozen=True)
class Block:
    """One fenced block of the README."""

    language: str
    line: int
    text: str
    skipped: bool

    @property
    def id(self) -> str:
        return f"{self.language}@README.md:{self.line}"


def readme_blocks() -> list[Block]:
    """The README's fenced blocks, with the line each opens on."""
    blocks: list[Block] = []
    lines = README.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        before = next((line for line in reversed(lines[:start]) if line.strip()), "")
        blocks.append(Block(fence.group(1), start + 1, "\n".join(body) + "\n", before.strip() == SKIP_MARK))
        i += 1
    return blocks


BLOCKS = readme_blocks()
CURL_BLOCKS = [b for b in BLOCKS if b.language == "bash" and "curl " in b.text and not b.skipped]
PYTHON_BLOCKS = [b for b in BLOCKS if b.language == "python" and not b.skipped]
JSON_BLOCKS = [b for b in BLOCKS if b.language == "json"]


@pytest.fixture(scope="module")
def api_address(memory: Memory) -> Iterator[str]:
    """``127.0.0.1:<port>``: the graphmem API served by uvicorn in a thread."""
    with serve(create_app(memory, flush_idle_minutes=None)) as url:
        yield f"{LOOPBACK}:{port_of(url)}"


def _env(target: Neo4jTarget) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(
        GRAPHMEM_NEO4J_URI=target.uri,
        GRAPHMEM_NEO4J_USER=target.user,
        GRAPHMEM_NEO4J_PASSWORD=target.password,
        GRAPHMEM_NEO4J_DATABASE=target.database,
        PYTHONPATH=str(ROOT),
    )
    return env


def _run(command: list[str], stdin: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, input=stdin, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def test_the_readme_has_examples_to_run() -> None:
    assert len(CURL_BLOCKS) >= 2 and len(PYTHON_BLOCKS) >= 2
    rest = next(b for b in CURL_BLOCKS if "/v1/memories/batch" in b.text)
    assert "[...]" not in rest.text, "a placeholder a newcomer would paste literally"
    assert re.search(r"^ID=", rest.text, re.M), "$ID is set before it is used"


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("block", CURL_BLOCKS, ids=lambda b: b.id)
def test_curl_block_runs(block: Block, api_address: str, neo4j_target: Neo4jTarget) -> None:
    script = _STRICT_CURL + _DOCUMENTED_API.sub(api_address, block.text)
    done = _run(["bash", "-euo", "pipefail"], script, _env(neo4j_target))
    assert done.returncode == 0, f"{block.id} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.id)
def test_python_block_runs(block: Block, api_address: str, neo4j_target: Neo4jTarget) -> None:
    code = _DOCUMENTED_API.sub(api_address, block.text)
    done = _run([sys.executable, "-"], code, _env(neo4j_target))
    assert done.returncode == 0, f"{block.id} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("block", JSON_BLOCKS, ids=lambda b: b.id)
def test_json_block_parses(block: Block) -> None:
    try:
        json.loads(block.text)
    except json.JSONDecodeError:  # JSON Lines (the import format)
        for line in block.text.splitlines():
            if line.strip():
                json.loads(line)
