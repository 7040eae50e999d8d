"""Fetching the Neo4j server jars with Maven, once per version.

The jars dir carries a marker file naming the version it holds; Maven runs only when the marker is
missing or names another version. Maven writes into a staging dir next to the jars dir, which then
replaces it, so an interrupted fetch never leaves a half-filled classpath behind.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from graphmem.errors import InvalidInputError, MavenNotFoundError, RuntimeSetupError
from graphmem.runtime.logs import tail

VERSION_MARKER = ".graphmem-neo4j-version"
MAVEN_TIMEOUT_SECONDS = 1800.0
_VERSION_RE = re.compile(r"^[0-9]+(\.[0-9A-Za-z-]+)+$")


def validate_version(version: str) -> str:
    """Return ``version`` if it looks like a Neo4j release (``5.26.30``, ``2025.01.0``).

    Raises:
        InvalidInputError: it does not (check ``GRAPHMEM_NEO4J_VERSION``).
    """
    if not _VERSION_RE.match(version):
        raise InvalidInputError(f"GRAPHMEM_NEO4J_VERSION={version!r} is not a Neo4j version such as 5.26.30")
    return version


def installed_version(jars_dir: Path) -> str | None:
    """Return the Neo4j version whose jars are in ``jars_dir``, or None if none are complete."""
    try:
        version = (jars_dir / VERSION_MARKER).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return version if (jars_dir / f"neo4j-{version}.jar").is_file() else None


def ensure_jars(jars_dir: Path, version: str, log_file: Path, env: Mapping[str, str] | None = None) -> bool:
    """Make ``jars_dir`` hold the jars of Neo4j ``version``; return True if Maven had to run.

    Raises:
        InvalidInputError: ``version`` is not a version string.
        MavenNotFoundError: the jars are missing and ``mvn`` is not on the PATH.
        RuntimeSetupError: Maven failed (the message carries its log tail), or ``jars_dir``
            holds files graphmem did not put there.
    """
    validate_version(version)
    if installed_version(jars_dir) == version:
        return False
    environ = dict(os.environ if env is None else env)
    mvn = shutil.which("mvn", path=environ.get("PATH"))
    if mvn is None:
        raise MavenNotFoundError(
            "Maven (mvn) is needed once to download the Neo4j jars and was not found on the PATH; "
            "install it (e.g. apt install maven) and retry"
        )
    jars_dir.parent.mkdir(parents=True, exist_ok=True)
    with _exclusive_lock(jars_dir.parent / f".{jars_dir.name}.lock"):
        if installed_version(jars_dir) == version:  # another process fetched them meanwhile
            return False
        _refuse_foreign_dir(jars_dir)
        work = Path(tempfile.mkdtemp(prefix=f".{jars_dir.name}-fetch-", dir=jars_dir.parent))
        try:
            staging = work / "lib"
            _run_maven(mvn, work, staging, version, log_file, environ)
            (staging / VERSION_MARKER).write_text(version + "\n", encoding="utf-8")
            _replace_dir(staging, jars_dir, work / "old")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return True


def _run_maven(
    mvn: str, work: Path, staging: Path, version: str, log_file: Path, env: dict[str, str]
) -> None:
    """Run ``dependency:copy-dependencies`` into ``staging``, logging to ``log_file``."""
    pom = work / "pom.xml"
    pom.write_bytes(resources.files("graphmem.runtime").joinpath("pom.xml").read_bytes())
    command = [
        mvn, "-B", "--no-transfer-progress", "-Dstyle.color=never", "-f", str(pom),
        "dependency:copy-dependencies",
        f"-DoutputDirectory={staging}",
        f"-Dneo4j.version={version}",
    ]  # fmt: skip
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("w", encoding="utf-8") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        try:
            result = subprocess.run(
                command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, timeout=MAVEN_TIMEOUT_SECONDS, check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as e:
            raise RuntimeSetupError(f"Maven could not fetch Neo4j {version}: {e}") from e
    if result.returncode != 0 or not (staging / f"neo4j-{version}.jar").is_file():
        raise RuntimeSetupError(
            f"Maven could not fetch Neo4j {version} (exit code {result.returncode}); "
            f"check the version and your network. Log {log_file}:\n{tail(log_file, 30)}"
        )


def _refuse_foreign_dir(jars_dir: Path) -> None:
    """Refuse to replace a non-empty dir that has no graphmem marker: it is not ours to delete."""
    if jars_dir.is_dir() and not (jars_dir / VERSION_MARKER).exists() and any(jars_dir.iterdir()):
        raise RuntimeSetupError(
            f"{jars_dir} holds files graphmem did not put there; empty it or choose another jars dir"
        )


def _replace_dir(new: Path, target: Path, trash: Path) -> None:
    """Move ``new`` to ``target``, first moving any existing ``target`` to ``trash``."""
    if target.exists():
        target.rename(trash)
    new.rename(target)


@contextmanager
def _exclusive_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` so two processes never fetch at once."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
