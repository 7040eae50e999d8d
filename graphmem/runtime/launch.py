"""Launching the server JVM detached from this process, and waiting until Bolt answers."""

from __future__ import annotations

import os
import signal
import time

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from graphmem.errors import ServerStartError
from graphmem.runtime.java import Java, classpath, java_environment, server_jvm_flags
from graphmem.runtime.layout import RuntimeLayout
from graphmem.runtime.logs import tail
from graphmem.runtime.process import SERVER_MAIN_CLASS, process_alive, terminate

LOG_TAIL_LINES = 40
_POLL_SECONDS = 0.25
_CONNECT_TIMEOUT_SECONDS = 2.0


def server_command(java: Java, layout: RuntimeLayout, heap: str) -> list[str]:
    """Return the command line of the server JVM (console mode: it stays in the foreground)."""
    return [
        str(java.path), f"-Xms{heap}", f"-Xmx{heap}", *server_jvm_flags(java.major),
        "-cp", classpath(layout.jars_dir), SERVER_MAIN_CLASS,
        f"--home-dir={layout.root}", f"--config-dir={layout.conf_dir}", "--console-mode",
    ]  # fmt: skip


def spawn_server(java: Java, layout: RuntimeLayout, heap: str) -> int:
    """Start the server JVM in a session of its own, output to ``console.log``; return its pid.

    The JVM is not tied to this process: it keeps running after Python exits. ``posix_spawn``
    rather than ``subprocess.Popen``, as a Popen object dropped while its process runs warns.

    Raises:
        ServerStartError: the JVM could not be executed.
    """
    layout.logs_dir.mkdir(parents=True, exist_ok=True)
    command = server_command(java, layout, heap)
    write_mode = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    try:
        return os.posix_spawn(
            command[0], command, java_environment(layout.root, layout.conf_dir),
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_OPEN, 1, str(layout.console_log), write_mode, 0o644),
                (os.POSIX_SPAWN_DUP2, 1, 2),
            ],
            setsid=True,
            # Python ignores SIGPIPE and SIGXFSZ; give the JVM the defaults, as Popen would.
            setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),
        )  # fmt: skip
    except OSError as e:
        raise ServerStartError(f"could not execute {java.path}: {e}") from e


def wait_until_ready(
    layout: RuntimeLayout, pid: int, uri: str, auth: tuple[str, str], timeout: float
) -> None:
    """Poll Bolt with the driver until the server accepts the credentials.

    Raises:
        ServerStartError: the process exited, refused the password, or did not answer within
            ``timeout`` seconds (it is then stopped); the message carries the log tail.
    """
    deadline = time.monotonic() + timeout
    with GraphDatabase.driver(
        uri,
        auth=auth,
        connection_timeout=_CONNECT_TIMEOUT_SECONDS,
        connection_acquisition_timeout=2 * _CONNECT_TIMEOUT_SECONDS,
    ) as driver:
        while True:
            if not process_alive(pid):
                raise ServerStartError(_failure(layout, "Neo4j exited during start-up"))
            try:
                driver.verify_connectivity()
                return
            except AuthError as e:
                raise ServerStartError(
                    f"Neo4j refused the password in {layout.password_file}; it no longer matches "
                    f"the database. Restore the file, or delete {layout.data_dir} to start afresh."
                ) from e
            except (DriverError, Neo4jError):
                pass  # not listening yet, or still starting its databases
            if time.monotonic() >= deadline:
                terminate(pid, timeout=30.0)
                raise ServerStartError(
                    _failure(
                        layout,
                        f"Neo4j did not answer on {uri} within {timeout:g} s and was stopped; "
                        "raise GRAPHMEM_NEO4J_START_TIMEOUT if the machine is slow",
                    )
                )
            time.sleep(_POLL_SECONDS)


def _failure(layout: RuntimeLayout, reason: str) -> str:
    """Return ``reason`` followed by the last lines of the console log."""
    return f"{reason}. Last lines of {layout.console_log}:\n{tail(layout.console_log, LOG_TAIL_LINES)}"
