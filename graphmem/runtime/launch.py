"""Launching the server JVM detached from this process, and waiting until Bolt answers."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from graphmem.errors import ServerStartError
from graphmem.runtime.java import SERVER_JVM_FLAGS, classpath, java_environment
from graphmem.runtime.layout import RuntimeLayout
from graphmem.runtime.logs import tail
from graphmem.runtime.process import SERVER_MAIN_CLASS, is_server_process, terminate

LOG_TAIL_LINES = 40
_POLL_SECONDS = 0.25
_CONNECT_TIMEOUT_SECONDS = 2.0


def server_command(java: Path, layout: RuntimeLayout, heap: str) -> list[str]:
    """Return the command line of the server JVM (console mode: it stays in the foreground)."""
    return [
        str(java), f"-Xms{heap}", f"-Xmx{heap}", *SERVER_JVM_FLAGS,
        "-cp", classpath(layout.jars_dir), SERVER_MAIN_CLASS,
        f"--home-dir={layout.root}", f"--config-dir={layout.conf_dir}", "--console-mode",
    ]  # fmt: skip


def spawn_server(java: Path, layout: RuntimeLayout, heap: str) -> int:
    """Start the server JVM in its own session, output to ``console.log``; return its pid.

    The JVM is not tied to this process: it keeps running after Python exits.

    Raises:
        ServerStartError: the JVM could not be executed.
    """
    layout.logs_dir.mkdir(parents=True, exist_ok=True)
    with layout.console_log.open("wb") as log:
        try:
            child = subprocess.Popen(
                server_command(java, layout, heap), cwd=layout.root,
                env=java_environment(layout.root, layout.conf_dir),
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        except OSError as e:
            raise ServerStartError(f"could not execute {java}: {e}") from e
    return child.pid


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
        uri, auth=auth, connection_timeout=_CONNECT_TIMEOUT_SECONDS
    ) as driver:
        while True:
            if not is_server_process(pid, layout.root):
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
                terminate(pid, layout.root, timeout=30.0)
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
    return (
        f"{reason}. Last lines of {layout.console_log}:\n{tail(layout.console_log, LOG_TAIL_LINES)}"
    )
