"""``ManagedNeo4j``: the local Neo4j graphmem installs, starts and stops itself (no Docker).

Usage::

    server = ManagedNeo4j.from_settings(settings)
    info = server.start()      # fetches the jars the first time, then launches a detached JVM
    ...                        # connect to info.uri as info.user / info.password
    server.stop()

The JVM outlives the Python process; a later ``start()`` (from any process) finds it through the
pid file and returns its connection info instead of launching a second one.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, SecretStr

from graphmem.config import Settings
from graphmem.errors import RuntimeSetupError
from graphmem.runtime.conf import (
    ensure_password,
    read_listen_ports,
    set_initial_password,
    write_conf,
)
from graphmem.runtime.home_lock import LOCK_FILE_NAME, home_lock
from graphmem.runtime.jars import ensure_jars, installed_version
from graphmem.runtime.java import Java, find_java
from graphmem.runtime.launch import spawn_server, wait_until_ready
from graphmem.runtime.layout import RuntimeLayout
from graphmem.runtime.ports import LOOPBACK, ensure_ports_free
from graphmem.runtime.process import (
    find_server_pid,
    is_server_process,
    process_alive,
    read_pid,
    remove_pid,
    terminate,
    write_pid,
)

NEO4J_USER = "neo4j"


class ConnectionInfo(BaseModel):
    """How to reach a running managed Neo4j."""

    model_config = ConfigDict(frozen=True)

    uri: str
    user: str
    password: SecretStr
    http_url: str
    browser_url: str


class RuntimeStatus(BaseModel):
    """What ``graphmem neo4j status`` reports."""

    model_config = ConfigDict(frozen=True)

    running: bool
    pid: int | None
    bolt_port: int
    http_port: int
    version: str
    home: Path


class ManagedNeo4j:
    """A Neo4j Community server whose jars, configuration, data and logs live under ``home``."""

    def __init__(
        self,
        home: Path,
        version: str,
        bolt_port: int,
        http_port: int,
        heap: str,
        pagecache: str,
        start_timeout: float,
        jars_dir: Path | None = None,
    ) -> None:
        """Keep the settings; nothing is read, fetched or started until a method is called.

        ``jars_dir`` defaults to ``<home>/neo4j/lib``; several homes may share one.
        """
        self.home = home
        self.version = version
        self.bolt_port = bolt_port
        self.http_port = http_port
        self.heap = heap
        self.pagecache = pagecache
        self.start_timeout = start_timeout
        self.jars_dir = jars_dir

    @classmethod
    def from_settings(cls, settings: Settings) -> ManagedNeo4j:
        """Build the managed server described by ``GRAPHMEM_HOME`` and ``GRAPHMEM_NEO4J_*``."""
        return cls(
            home=settings.home,
            version=settings.neo4j_version,
            bolt_port=settings.neo4j_bolt_port,
            http_port=settings.neo4j_http_port,
            heap=settings.neo4j_heap,
            pagecache=settings.neo4j_pagecache,
            start_timeout=settings.neo4j_start_timeout,
        )

    @property
    def layout(self) -> RuntimeLayout:
        """The paths of this installation."""
        return RuntimeLayout(self.home, self.jars_dir)

    def install(self) -> None:
        """Fetch the jars (first time or new version), write ``neo4j.conf``, set the password.

        Does nothing while the server runs, as its jars and configuration are in use.

        Raises:
            JavaNotFoundError: no Java 17+ is available.
            MavenNotFoundError: the jars must be fetched and ``mvn`` is missing.
            InvalidInputError: a version, port or memory setting is invalid.
            RuntimeSetupError: fetching the jars or setting the password failed.
        """
        if self._running_pid() is None:
            self._install()

    def start(self) -> ConnectionInfo:
        """Start the server (installing it first if needed) and wait until Bolt answers.

        If it already runs, return its connection info instead of launching another.

        Raises:
            PortInUseError: the Bolt or HTTP port is taken by another program.
            ServerStartError: the server exited or did not answer within ``start_timeout``.
            RuntimeSetupError: installing failed (see :meth:`install`).
        """
        layout = self.layout
        # One start at a time per home, held until the server answers: a second `graphmem serve`
        # waits here, then finds this server instead of launching a rival that orphans it.
        with home_lock(self._lock_file, self.start_timeout + 600.0):
            pid = self._running_pid()
            if pid is None:
                ensure_ports_free(self.bolt_port, self.http_port)  # before a possibly long install
                java = self._install()
                pid = spawn_server(java, layout, self.heap)
                write_pid(layout.pid_file, pid)
            info = self._connection_info()
            auth = (info.user, info.password.get_secret_value())
            try:
                wait_until_ready(layout, pid, info.uri, auth, self.start_timeout)
            except RuntimeSetupError:
                if not process_alive(pid):
                    remove_pid(layout.pid_file)
                raise
            return info

    def stop(self, timeout: float = 60.0) -> bool:
        """Shut the server down cleanly (SIGTERM), killing it after ``timeout`` seconds.

        Returns True if a server was running.
        """
        layout = self.layout
        with home_lock(self._lock_file, timeout + self.start_timeout + 600.0):
            pid = self._running_pid()
            if pid is not None:
                terminate(pid, timeout)
            remove_pid(layout.pid_file)
            return pid is not None

    def status(self) -> RuntimeStatus:
        """Report whether the server runs, its pid, ports, Neo4j version and home."""
        pid = self._running_pid()
        bolt_port, http_port = self._ports(pid is not None)
        return RuntimeStatus(
            running=pid is not None,
            pid=pid,
            bolt_port=bolt_port,
            http_port=http_port,
            version=installed_version(self.layout.jars_dir) or self.version,
            home=self.home,
        )

    def _install(self) -> Java:
        """Install (see :meth:`install`) and return the java executable to launch with."""
        layout = self.layout
        java = find_java()
        ensure_jars(layout.jars_dir, self.version, layout.maven_log)
        write_conf(layout, self.version, self.bolt_port, self.http_port, self.heap, self.pagecache)
        if not layout.password_file.exists() and layout.system_database_dir.exists():
            raise RuntimeSetupError(
                f"{layout.password_file} is missing but the database in {layout.data_dir} already "
                "has a password; restore the file, or delete the data dir to start afresh"
            )
        ensure_password(layout.password_file)
        set_initial_password(java, layout, layout.password_file)
        return java

    @property
    def _lock_file(self) -> Path:
        return self.layout.run_dir / LOCK_FILE_NAME

    def _running_pid(self) -> int | None:
        """Return the pid of this home's server if it runs, by its pid file or, when that is lost
        or stale, by its command line (then the pid file is written again)."""
        layout = self.layout
        pid = read_pid(layout.pid_file)
        if pid is not None and is_server_process(pid, layout.root):
            return pid
        found = find_server_pid(layout.root)
        if found is None:
            remove_pid(layout.pid_file)
            return None
        write_pid(layout.pid_file, found)
        return found

    def _ports(self, running: bool) -> tuple[int, int]:
        """The ports the server listens on: from its conf if it runs, else the configured ones."""
        if running:
            try:
                ports = read_listen_ports(self.layout.conf_file.read_text(encoding="utf-8"))
            except OSError:
                ports = None
            if ports is not None:
                return ports
        return self.bolt_port, self.http_port

    def _connection_info(self) -> ConnectionInfo:
        """The connection info of the server as configured on disk."""
        bolt_port, http_port = self._ports(running=True)
        try:
            password = self.layout.password_file.read_text(encoding="utf-8").strip()
        except OSError as e:
            raise RuntimeSetupError(f"cannot read the Neo4j password: {e}") from e
        http_url = f"http://{LOOPBACK}:{http_port}"
        return ConnectionInfo(
            uri=f"bolt://{LOOPBACK}:{bolt_port}",
            user=NEO4J_USER,
            password=SecretStr(password),
            http_url=http_url,
            browser_url=f"{http_url}/browser/",
        )
