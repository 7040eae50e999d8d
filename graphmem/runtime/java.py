"""Finding a Java 17+ to run Neo4j, and the JVM flags the server is launched with."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from graphmem.errors import JavaNotFoundError

MIN_JAVA_MAJOR = 17
_VERSION_RE = re.compile(r'version\s+"([^"]+)"')

# The flags Neo4j's own launcher passes (its server.jvm.additional defaults), minus diagnostics.
_BASE_JVM_FLAGS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
)
# Lucene (the vector index) uses the SIMD incubator API from Java 21 on; on Java 17 the module
# only earns a startup warning ("your Java version is too old"), so it is left out there.
_VECTOR_API_MIN_MAJOR = 21
_VECTOR_API_FLAG = "--add-modules=jdk.incubator.vector"


@dataclass(frozen=True)
class Java:
    """A usable ``java`` executable and its major version."""

    path: Path
    major: int


def server_jvm_flags(java_major: int) -> list[str]:
    """Return the JVM flags (besides heap and classpath) the server is launched with."""
    flags = list(_BASE_JVM_FLAGS)
    if java_major >= _VECTOR_API_MIN_MAJOR:
        flags.append(_VECTOR_API_FLAG)
    return flags


def parse_java_major(version_output: str) -> int:
    """Return the major version from the output of ``java -version``.

    Handles both schemes: ``"1.8.0_292"`` is 8, ``"17.0.15"``, ``"21"`` and ``"22-ea"`` are 17,
    21 and 22.

    Raises:
        JavaNotFoundError: the output carries no recognisable version.
    """
    match = _VERSION_RE.search(version_output)
    if match is None:
        raise JavaNotFoundError(f"could not read a Java version from: {version_output.strip()[:200]!r}")
    parts = re.split(r"[.\-+_]", match.group(1))
    try:
        major = int(parts[0])
        if major == 1 and len(parts) > 1:
            major = int(parts[1])
    except ValueError as e:
        raise JavaNotFoundError(f"could not read a Java version from {match.group(1)!r}") from e
    return major


def locate_java(env: Mapping[str, str] | None = None) -> Path:
    """Return the ``java`` executable: ``$JAVA_HOME/bin/java`` when JAVA_HOME is set, else the PATH.

    Raises:
        JavaNotFoundError: JAVA_HOME points at no java, or there is none on the PATH.
    """
    environ = os.environ if env is None else env
    java_home = environ.get("JAVA_HOME")
    if java_home:
        candidate = Path(java_home) / "bin" / "java"
        if not candidate.is_file():
            raise JavaNotFoundError(
                f"JAVA_HOME is {java_home} but {candidate} does not exist; "
                f"point JAVA_HOME at a Java {MIN_JAVA_MAJOR}+ installation or unset it"
            )
        return candidate
    found = shutil.which("java", path=environ.get("PATH"))
    if found is None:
        raise JavaNotFoundError(
            f"java was not found on the PATH; install a Java {MIN_JAVA_MAJOR}+ runtime "
            "(e.g. apt install openjdk-17-jre-headless) or set JAVA_HOME"
        )
    return Path(os.path.abspath(found))


def find_java(env: Mapping[str, str] | None = None) -> Java:
    """Return a ``java`` executable of version 17 or later.

    Raises:
        JavaNotFoundError: no java was found, it does not run, or it is older than Java 17.
    """
    java = locate_java(env)
    try:
        result = subprocess.run(
            [str(java), "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise JavaNotFoundError(f"could not run {java} -version: {e}") from e
    major = parse_java_major(result.stderr + result.stdout)
    if major < MIN_JAVA_MAJOR:
        raise JavaNotFoundError(
            f"{java} is Java {major}; Neo4j needs Java {MIN_JAVA_MAJOR} or later "
            "(set JAVA_HOME to a newer installation)"
        )
    return Java(java, major)


def java_environment(
    neo4j_home: Path, conf_dir: Path, env: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Return the environment for a Neo4j JVM: the current one plus ``NEO4J_HOME``/``NEO4J_CONF``."""
    environ = dict(os.environ if env is None else env)
    environ["NEO4J_HOME"] = str(neo4j_home)
    environ["NEO4J_CONF"] = str(conf_dir)
    return environ


def classpath(jars_dir: Path) -> str:
    """Return the JVM classpath wildcard for every jar in ``jars_dir``."""
    return str(jars_dir / "*")
