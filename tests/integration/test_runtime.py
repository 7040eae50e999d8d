"""The managed local Neo4j, on a real server: install, start, reuse, restart, stop, errors.

One server (in a throw-away home, on free ports) serves the whole module; it is started three
times in all, plus one launch that is meant to fail. The jars are fetched once into a shared dir
(``$GRAPHMEM_TEST_JARS``, else the user's ``~/.local/share/graphmem/neo4j/lib``).
"""

from __future__ import annotations

import os
import socket
import stat
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphmem.config import Settings, default_home
from graphmem.connect import Neo4jTarget, open_memory
from graphmem.embedding.base import Embedder
from graphmem.errors import PortInUseError, ServerStartError
from graphmem.runtime import ConnectionInfo, ManagedNeo4j
from graphmem.runtime.ports import free_port, port_answers, port_is_free
from graphmem.runtime.process import process_alive

pytestmark = pytest.mark.integration

VERSION = "5.26.30"


def shared_jars_dir() -> Path:
    """One jar cache for every test server, so the jars are downloaded at most once."""
    return Path(os.environ.get("GRAPHMEM_TEST_JARS", default_home() / "neo4j" / "lib"))


def managed(home: Path, bolt_port: int | None = None, heap: str = "512m") -> ManagedNeo4j:
    """A managed server in ``home`` on free ports, with small memory settings."""
    return ManagedNeo4j(
        home=home,
        version=VERSION,
        bolt_port=bolt_port or free_port(),
        http_port=free_port(),
        heap=heap,
        pagecache="128m",
        start_timeout=180.0,
        jars_dir=shared_jars_dir(),
    )


def run(info: ConnectionInfo, query: str, **params: object) -> list[dict[str, object]]:
    """Run one query on the server as the generated user."""
    auth = (info.user, info.password.get_secret_value())
    with GraphDatabase.driver(info.uri, auth=auth) as driver:
        records, _, _ = driver.execute_query(query, params, database_="neo4j")
    return [record.data() for record in records]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ManagedNeo4j]:
    """A managed server, installed; stopped (and its JVM gone) at the end of the module."""
    neo4j = managed(tmp_path_factory.mktemp("runtime-home"))
    neo4j.install()
    yield neo4j
    pid = neo4j.status().pid
    neo4j.stop(timeout=30.0)
    assert pid is None or not process_alive(pid)


@pytest.fixture(scope="module")
def started(server: ManagedNeo4j) -> ConnectionInfo:
    """The connection info of the first start."""
    return server.start()


def test_install_writes_a_private_password_and_loopback_conf(server: ManagedNeo4j) -> None:
    layout = server.layout
    assert stat.S_IMODE(layout.password_file.stat().st_mode) == 0o600
    conf = layout.conf_file.read_text()
    assert f"server.bolt.listen_address=127.0.0.1:{server.bolt_port}" in conf
    assert (layout.data_dir / "dbms" / "auth.ini").exists()  # initial password set before 1st start
    assert not server.status().running


def test_start_answers_on_bolt_with_the_generated_password(
    server: ManagedNeo4j, started: ConnectionInfo
) -> None:
    assert started.uri == f"bolt://127.0.0.1:{server.bolt_port}"
    assert started.user == "neo4j"
    assert started.password.get_secret_value() == server.layout.password_file.read_text().strip()
    assert started.browser_url == f"http://127.0.0.1:{server.http_port}/browser/"
    assert run(started, "RETURN $x AS x", x=41) == [{"x": 41}]
    assert server.layout.pid_file.exists()


def test_browser_is_served(started: ConnectionInfo) -> None:
    deadline = time.monotonic() + 60  # HTTP comes up a moment after Bolt
    while True:
        try:
            with urllib.request.urlopen(started.browser_url, timeout=5) as response:
                assert response.status == 200
                assert b"<html" in response.read(4096).lower()
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_status_reflects_the_running_server(server: ManagedNeo4j, started: ConnectionInfo) -> None:
    status = server.status()
    assert status.running and status.pid is not None and process_alive(status.pid)
    assert (status.bolt_port, status.http_port) == (server.bolt_port, server.http_port)
    assert status.version == VERSION
    assert status.home == server.home


def test_second_start_returns_the_running_server(server: ManagedNeo4j, started: ConnectionInfo) -> None:
    pid = server.status().pid
    again = managed(server.home)  # another process would build its own object, maybe other ports
    assert again.start() == started
    assert again.status().pid == pid


def test_vector_index_works(started: ConnectionInfo) -> None:
    label = f"Probe{uuid.uuid4().hex[:8]}"
    index = f"probe_{uuid.uuid4().hex[:8]}"
    run(
        started,
        f"CREATE VECTOR INDEX {index} FOR (n:{label}) ON n.embedding "
        "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
    )
    run(started, "CALL db.awaitIndexes(60)")
    vectors = [[1.0 if i == k else 0.0 for i in range(384)] for k in range(3)]
    run(started, f"UNWIND range(0, 2) AS k CREATE (:{label} {{k: k, embedding: $v[k]}})", v=vectors)
    hits = run(
        started,
        "CALL db.index.vector.queryNodes($index, 2, $q) YIELD node, score RETURN node.k AS k, score",
        index=index,
        q=vectors[1],
    )
    assert hits[0]["k"] == 1 and hits[0]["score"] == pytest.approx(1.0)
    run(started, f"DROP INDEX {index}")


def test_data_survives_stop_and_start(server: ManagedNeo4j, started: ConnectionInfo) -> None:
    token = uuid.uuid4().hex
    run(started, "CREATE (:RuntimeProbe {token: $token})", token=token)
    pid = server.status().pid
    assert pid is not None

    assert server.stop(timeout=30.0) is True
    assert not process_alive(pid)
    assert not server.status().running
    assert not server.layout.pid_file.exists()
    assert port_is_free(server.bolt_port) and port_is_free(server.http_port)
    assert (server.layout.logs_dir / "neo4j.log").read_text().rstrip().endswith("Stopped.")  # clean
    assert server.stop() is False  # nothing left to stop

    info = server.start()
    assert info == started
    assert server.status().pid != pid
    found = run(info, "MATCH (p:RuntimeProbe {token: $token}) RETURN count(p) AS n", token=token)
    assert found == [{"n": 1}]


@pytest.mark.parametrize("which", ["bolt", "http"])
def test_occupied_port_is_named_with_its_setting(tmp_path: Path, which: str) -> None:
    other = managed(tmp_path / "home")
    port = other.bolt_port if which == "bolt" else other.http_port
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        with pytest.raises(PortInUseError, match=f"GRAPHMEM_NEO4J_{which.upper()}_PORT") as caught:
            other.start()
    assert str(port) in str(caught.value)
    assert not other.layout.pid_file.exists()


def test_a_server_that_dies_at_start_reports_its_log(tmp_path: Path) -> None:
    doomed = managed(tmp_path / "home", heap="1k")  # the JVM refuses a 1 KB heap at once
    with pytest.raises(ServerStartError, match=r"(?i)heap") as caught:
        doomed.start()
    assert "console.log" in str(caught.value)
    assert not doomed.status().running
    assert not port_answers(doomed.bolt_port)


def test_memories_survive_a_restart_through_the_facade(
    server: ManagedNeo4j, started: ConnectionInfo, embedder: Embedder
) -> None:
    target = Neo4jTarget(
        uri=started.uri, user=started.user, password=started.password.get_secret_value(), database="neo4j"
    )
    scope = f"/test/runtime/{uuid.uuid4().hex[:12]}"
    texts = [
        "Priya keeps her spare house key under the blue flower pot.",
        "The quarterly budget review moved to the first Thursday of the month.",
        "Tomasz is learning to play the cello and practises every evening.",
    ]
    with open_memory(Settings(), target, embedder=embedder) as memory:
        ids = [memory.remember(text, scope=scope).memory.id for text in texts]

    assert server.stop(timeout=30.0) is True
    assert server.start() == started

    with open_memory(Settings(), target, embedder=embedder) as memory:  # as a new process would
        for memory_id, text in zip(ids, texts, strict=True):
            got = memory.get(memory_id)
            assert (got.text, got.scope, got.status) == (text, scope, "active")
        everything = memory.recall("what do I know?", scope=scope, limit=10)
        assert sorted(hit.id for hit in everything.results) == sorted(ids)
        where_is_the_key = memory.recall("Where is the spare key hidden?", scope=scope, limit=3)
        assert where_is_the_key.results[0].id == ids[0]
