"""The pid file of the detached server JVM, and telling whether that process still runs."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

SERVER_MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
_POLL_SECONDS = 0.1


def write_pid(path: Path, pid: int) -> None:
    """Record ``pid`` in the pid file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_suffix(".tmp")
    staging.write_text(f"{pid}\n", encoding="utf-8")
    staging.replace(path)


def read_pid(path: Path) -> int | None:
    """Return the pid in the pid file, or None if there is no readable one."""
    try:
        return int(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None


def remove_pid(path: Path) -> None:
    """Delete the pid file if it exists."""
    path.unlink(missing_ok=True)


def is_server_process(pid: int, neo4j_home: Path) -> bool:
    """Return True if ``pid`` is alive and is the Neo4j server of ``neo4j_home``.

    Guards against pid reuse: on Linux the command line must name the server's main class and
    home dir. A dead child of this process is reaped first, as a zombie would look alive.
    """
    _reap(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        import sys
        print("DEBUG lookup", pid, file=sys.stderr)
        return False
    except PermissionError:
        return False  # some other user's process: not ours
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not Path("/proc/self/cmdline").exists():
        return True  # no procfs (macOS): trust the pid file
    try:
        args = cmdline.read_bytes().split(b"\0")
    except OSError:
        return False
    home_arg = f"--home-dir={neo4j_home}".encode()
    ok = SERVER_MAIN_CLASS.encode() in args and home_arg in args
    if not ok:
        import sys
        print("DEBUG cmdline", pid, args[:3], len(args), file=sys.stderr)
    return ok


def wait_for_exit(pid: int, neo4j_home: Path, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the server to exit; return True if it did."""
    deadline = time.monotonic() + timeout
    while is_server_process(pid, neo4j_home):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_SECONDS)
    return True


def terminate(pid: int, neo4j_home: Path, timeout: float) -> bool:
    """Stop the server: SIGTERM (a clean shutdown), then SIGKILL after ``timeout`` seconds.

    Returns True if the server shut down cleanly, False if it had to be killed.
    """
    if not _signal(pid, signal.SIGTERM):
        return True
    if wait_for_exit(pid, neo4j_home, timeout):
        return True
    _signal(pid, signal.SIGKILL)
    wait_for_exit(pid, neo4j_home, 10.0)
    return False


def _signal(pid: int, signum: signal.Signals) -> bool:
    """Send ``signum``; return False if the process is already gone."""
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        return False
    return True


def _reap(pid: int) -> None:
    """Collect ``pid``'s exit status if it is a finished child of this process."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass  # not our child (another process started it): nothing to reap
