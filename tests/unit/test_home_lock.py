"""One managed Neo4j per home: the start/stop lock, and finding the server when its pid file is lost."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.errors import RuntimeSetupError
from graphmem.runtime.home_lock import home_lock
from graphmem.runtime.process import SERVER_MAIN_CLASS, find_server_pid, process_alive
from graphmem.runtime.server import ManagedNeo4j


def test_a_second_holder_waits_then_is_told_what_to_do(tmp_path: Path) -> None:
    lock = tmp_path / "run" / "graphmem-neo4j.lock"
    with (
        home_lock(lock, timeout=1.0),
        pytest.raises(RuntimeSetupError, match="Another graphmem process"),
        home_lock(lock, timeout=0.3),
    ):
        pass
    with home_lock(lock, timeout=0.3):  # released when the first holder is done
        pass


def test_the_lock_is_handed_over_when_the_holder_finishes(tmp_path: Path) -> None:
    lock = tmp_path / "graphmem-neo4j.lock"
    order: list[str] = []
    held = threading.Event()

    def first() -> None:
        with home_lock(lock, timeout=1.0):
            held.set()
            threading.Event().wait(0.5)
            order.append("first done")

    thread = threading.Thread(target=first)
    thread.start()
    held.wait(5)
    with home_lock(lock, timeout=5.0):
        order.append("second in")
    thread.join()
    assert order == ["first done", "second in"]


@pytest.fixture
def fake_server(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A process whose command line looks like this home's Neo4j server (it only sleeps)."""
    home_dir = tmp_path / "neo4j"
    process = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", SERVER_MAIN_CLASS, f"--home-dir={home_dir}"]
    )
    for _ in range(50):  # until the exec shows in procfs
        cmdline = Path(f"/proc/{process.pid}/cmdline")
        if cmdline.exists() and SERVER_MAIN_CLASS.encode() in cmdline.read_bytes():
            break
        time.sleep(0.05)
    yield process
    process.kill()
    process.wait()


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs procfs")
def test_status_and_stop_find_the_server_when_its_pid_file_is_lost(
    tmp_path: Path, fake_server: subprocess.Popen[bytes]
) -> None:
    server = ManagedNeo4j(
        home=tmp_path,
        version="5.26.0",
        bolt_port=1,
        http_port=2,
        heap="1g",
        pagecache="64m",
        start_timeout=5.0,
    )
    assert not server.layout.pid_file.exists()
    assert find_server_pid(server.layout.root) == fake_server.pid

    status = server.status()
    assert status.running and status.pid == fake_server.pid

    assert server.stop(timeout=5.0) is True
    fake_server.wait(5)
    assert not process_alive(fake_server.pid)
    assert server.status().running is False
