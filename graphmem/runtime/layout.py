"""Where the managed Neo4j keeps its files under ``GRAPHMEM_HOME``.

Everything lives in ``<home>/neo4j/``: ``lib`` (jars, unless another jars dir is given), ``conf``,
``data``, ``logs``, ``run``, ``plugins`` and the ``password`` file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PID_FILE_NAME = "graphmem-neo4j.pid"
CONSOLE_LOG_NAME = "console.log"


@dataclass(frozen=True)
class RuntimeLayout:
    """The paths of one managed Neo4j installation; computing them does no I/O."""

    home: Path
    jars_override: Path | None = None

    @property
    def root(self) -> Path:
        """``<home>/neo4j``: the Neo4j home (``NEO4J_HOME``) of the managed server."""
        return self.home / "neo4j"

    @property
    def jars_dir(self) -> Path:
        """The directory holding the server's jars (the classpath)."""
        return self.jars_override if self.jars_override is not None else self.root / "lib"

    @property
    def conf_dir(self) -> Path:
        """The directory holding ``neo4j.conf`` (``NEO4J_CONF``)."""
        return self.root / "conf"

    @property
    def conf_file(self) -> Path:
        """The generated ``neo4j.conf``."""
        return self.conf_dir / "neo4j.conf"

    @property
    def data_dir(self) -> Path:
        """The databases and transaction logs; kept across restarts."""
        return self.root / "data"

    @property
    def logs_dir(self) -> Path:
        """Neo4j's own logs plus ``console.log`` (the JVM's stdout and stderr)."""
        return self.root / "logs"

    @property
    def run_dir(self) -> Path:
        """Runtime state: the pid file."""
        return self.root / "run"

    @property
    def plugins_dir(self) -> Path:
        """Neo4j plugins (none are installed by graphmem)."""
        return self.root / "plugins"

    @property
    def password_file(self) -> Path:
        """The generated password of the ``neo4j`` user (mode 0600)."""
        return self.root / "password"

    @property
    def pid_file(self) -> Path:
        """The pid of the running server's JVM."""
        return self.run_dir / PID_FILE_NAME

    @property
    def console_log(self) -> Path:
        """Where the detached JVM's stdout and stderr go."""
        return self.logs_dir / CONSOLE_LOG_NAME

    @property
    def maven_log(self) -> Path:
        """The output of the last Maven run that fetched the jars."""
        return self.logs_dir / "maven.log"

    @property
    def system_database_dir(self) -> Path:
        """Exists once the server has started at least once (the initial password is then set)."""
        return self.data_dir / "databases" / "system"
