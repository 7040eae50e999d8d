"""The pid file of the detached server JVM, and telling whether that process still runs."""

from __future__ import annotations

import contextlib
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


def process_alive(pid: int) -> bool:
    """Return True if process ``pid`` exists and has not exited (a zombie counts as exited).

    A finished child of this process is reaped first.
    """
    _reap(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, under another user
    return not _is_zombie(pid)


def is_server_process(pid: int, neo4j_home: Path) -> bool:
    """Return True if ``pid`` is alive and is the Neo4j server of ``neo4j_home``.

    Guards against a recycled pid in a stale pid file: where procfs exists (Linux), the command
    line must name the server's main class and this home dir.
    """
    if not process_alive(pid):
        return False
    args = _cmdline(pid)
    if args is None:
        return True  # no procfs (macOS): trust the pid file
    return SERVER_MAIN_CLASS in args and f"--home-dir={neo4j_home}" in args


def find_server_pid(neo4j_home: Path) -> int | None:
    """The pid of a running Neo4j server of ``neo4j_home``, found by its command line (procfs).

    For when the pid file was lost (deleted, or overwritten by a racing start): the server is
    still ours if its arguments name the server's main class and this home dir. None where there
    is no procfs or no such process.
    """
    proc = Path("/proc")
    if not (proc / "self" / "cmdline").exists():
        return None
    wanted = f"--home-dir={neo4j_home}"
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if SERVER_MAIN_CLASS in args and wanted in args and process_alive(int(entry.name)):
            return int(entry.name)
    return None


def wait_for_exit(pid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the server to exit; return True if it did."""
    deadline = time.monotonic() + timeout
    while process_alive(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_SECONDS)
    return True


def terminate(pid: int, timeout: float) -> bool:
    """Stop the server: SIGTERM (a clean shutdown), then SIGKILL after ``timeout`` seconds.

    Returns True if the server shut down cleanly, False if it had to be killed.
    """
    if not _signal(pid, signal.SIGTERM):
        return True
    if wait_for_exit(pid, timeout):
        return True
    _signal(pid, signal.SIGKILL)
    wait_for_exit(pid, 10.0)
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
    # Not our child (another process started it): nothing to reap.
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _cmdline(pid: int) -> list[str] | None:
    """Return the arguments of ``pid`` from procfs, or None where there is no procfs.

    Read through the threads, since once the main thread has exited (while the JVM shuts down)
    its own ``cmdline`` is empty.
    """
    if not Path("/proc/self/cmdline").exists():
        return None
    for path in [Path(f"/proc/{pid}/cmdline"), *Path(f"/proc/{pid}/task").glob("*/cmdline")]:
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        if raw:
            return raw.decode(errors="replace").split("\0")
    return []


def _is_zombie(pid: int) -> bool:
    """Return True if ``pid`` has exited and awaits its parent (procfs only).

    A main thread that has exited also shows as a zombie while other threads run on, as a JVM
    does during shutdown; only a zombie without other threads is dead.
    """
    try:
        lines = Path(f"/proc/{pid}/status").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    threads = fields.get("Threads", "1").strip()
    return fields.get("State", "").strip().startswith("Z") and (not threads.isdigit() or int(threads) <= 1)
