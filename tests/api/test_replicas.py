"""Two API processes against one Neo4j, as replicas behind a load balancer would run."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

import httpx
import pytest

from graphmem.connect import Neo4jTarget
from graphmem.runtime.ports import free_port


@contextmanager
def serving(target: Neo4jTarget, uri: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``graphmem serve`` in a subprocess against ``uri``; yields its base URL once healthy."""
    port = free_port()
    env = {
        **os.environ,
        "GRAPHMEM_NEO4J_URI": uri,
        "GRAPHMEM_NEO4J_USER": target.user,
        "GRAPHMEM_NEO4J_PASSWORD": target.password,
        "GRAPHMEM_NEO4J_DATABASE": target.database,
        "GRAPHMEM_LLM": "none",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield f"http://127.0.0.1:{port}", process
    finally:
        process.terminate()
        process.wait(timeout=30)


def wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/v1/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            err = process.stderr.read().decode() if process.stderr else ""
            pytest.fail(f"the API process exited: {err}")
        time.sleep(0.5)
    pytest.fail(f"the API at {url} did not answer within 180 s")


@pytest.fixture(scope="module")
def replicas(neo4j_target: Neo4jTarget) -> Iterator[tuple[str, str]]:
    """Two API processes: one on the bolt:// URI, one on neo4j:// (routing, as clusters and Aura use)."""
    routing = neo4j_target.uri.replace("bolt://", "neo4j://", 1)
    with ExitStack() as stack:
        a = stack.enter_context(serving(neo4j_target, neo4j_target.uri))
        b = stack.enter_context(serving(neo4j_target, routing))
        wait_healthy(*a)
        wait_healthy(*b)
        yield a[0], b[0]


def test_a_write_through_one_process_is_recalled_through_the_other_at_once(
    replicas: tuple[str, str], scope: str
) -> None:
    first, second = replicas
    for writer, reader in ((first, second), (second, first)):
        text = f"The spare key to the boathouse is under the blue flowerpot ({writer[-5:]})"
        written = httpx.post(f"{writer}/v1/memories", json={"text": text, "scope": scope}, timeout=120)
        assert written.status_code == 201, written.text
        found = httpx.post(
            f"{reader}/v1/recall",
            json={"query": "where is the spare boathouse key?", "scope": scope},
            timeout=120,
        )
        assert found.status_code == 200, found.text
        assert text in [r["text"] for r in found.json()["results"]]


def test_a_memory_re_worded_or_deleted_through_one_process_changes_the_other_s_next_recall(
    replicas: tuple[str, str], scope: str
) -> None:
    first, second = replicas
    texts = [
        "Ingrid keeps bees on the roof of her building.",
        "Ingrid's locker code is 4471.",
        "The quarterly report is due on the first Friday of March.",
    ]
    written = httpx.post(
        f"{first}/v1/memories/batch",
        json={"items": [{"text": t, "scope": scope} for t in texts]},
        timeout=120,
    )
    assert written.status_code == 201, written.text
    ask = {"query": "Who keeps bees?", "scope": scope, "reinforce": False}
    before = httpx.post(f"{second}/v1/recall", json=ask, timeout=120).json()["results"]
    assert before[0]["text"] == texts[0]  # the second process now holds the scope in its cache
    ids = {r["text"]: r["id"] for r in before}
    reworded = "Ingrid keeps a second hive of bees at the allotment."
    patched = httpx.patch(f"{first}/v1/memories/{ids[texts[1]]}", json={"text": reworded}, timeout=120)
    assert patched.status_code == 200, patched.text
    assert httpx.delete(f"{first}/v1/memories/{ids[texts[0]]}", timeout=120).status_code == 204
    after = httpx.post(f"{second}/v1/recall", json=ask, timeout=120).json()["results"]
    assert after[0]["id"] == ids[texts[1]] and after[0]["text"] == reworded
    assert ids[texts[0]] not in [r["id"] for r in after]


def test_consolidation_started_on_both_processes_never_runs_twice_at_once(
    replicas: tuple[str, str], scope: str
) -> None:
    items = [
        {"text": f"Pat practises the cello every evening, session {i}", "scope": scope} for i in range(3)
    ]
    assert (
        httpx.post(f"{replicas[0]}/v1/memories/batch", json={"items": items}, timeout=120).status_code == 201
    )
    gate = threading.Barrier(2)

    def start(url: str) -> httpx.Response:
        gate.wait()
        return httpx.post(f"{url}/v1/consolidate?wait=true", json={"jobs": ["nightly"]}, timeout=600)

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(start, replicas))
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    ran = [
        (run["started_at"], run["finished_at"])
        for a in answers
        if a.status_code == 200
        for run in a.json()["runs"]
        if run["status"] == "succeeded"
    ]
    assert ran, "one of the two processes ran the nightly job"
    # The lock lives in the graph: the other process was told 'busy' (or 409), or ran after it.
    if len(ran) == 2:
        earlier, later = sorted(ran)
        assert earlier[1] <= later[0], f"two nightly runs overlapped: {ran}"


def test_a_consolidation_run_started_on_one_process_is_followed_on_the_other(
    replicas: tuple[str, str],
) -> None:
    first, second = replicas
    started = httpx.post(f"{first}/v1/consolidate", json={"jobs": ["nightly"]}, timeout=60)
    assert started.status_code == 202, started.text
    run_id = started.json()["id"]
    deadline = time.monotonic() + 600
    while True:
        followed = httpx.get(f"{second}/v1/consolidate/runs/{run_id}", timeout=60)
        assert followed.status_code == 200, followed.text
        if followed.json()["state"] != "running" or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert followed.json()["state"] in ("succeeded", "busy"), followed.json()
    assert httpx.get(f"{first}/v1/consolidate/runs/{run_id}", timeout=60).json() == followed.json()
