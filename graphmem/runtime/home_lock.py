"""One managed Neo4j per ``GRAPHMEM_HOME``: an exclusive lock while a process starts or stops it.

Two ``graphmem serve`` on one home used to race: both saw no server, both launched one, and the
pid file kept only the second, orphaning the first. The lock (``flock`` on a file in the run dir,
released by the kernel if its holder dies) makes the second wait and then find the first's server.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphmem.errors import RuntimeSetupError

LOCK_FILE_NAME = "graphmem-neo4j.lock"
_POLL_SECONDS = 0.2


@contextmanager
def home_lock(path: Path, timeout: float) -> Iterator[None]:
    """Hold the exclusive lock ``path`` for the block, waiting up to ``timeout`` seconds for it.

    Raises:
        RuntimeSetupError: another process held it for longer than ``timeout``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)  # not inherited by the JVM (O_CLOEXEC by default)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise RuntimeSetupError(
                        f"Another graphmem process is starting or stopping the Neo4j of this home "
                        f"(it holds {path}); wait for it to finish, then retry."
                    ) from None
                time.sleep(_POLL_SECONDS)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)  # closing releases the lock
