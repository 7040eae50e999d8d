"""Fetching the Neo4j jars: the version marker and the errors a user sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.errors import InvalidInputError, MavenNotFoundError, RuntimeSetupError
from graphmem.runtime.jars import VERSION_MARKER, ensure_jars, installed_version, validate_version


def _installed(jars_dir: Path, version: str) -> Path:
    """A jars dir that looks like a finished fetch of ``version``."""
    jars_dir.mkdir(parents=True)
    (jars_dir / f"neo4j-{version}.jar").write_bytes(b"")
    (jars_dir / VERSION_MARKER).write_text(version + "\n")
    return jars_dir


def _fake_mvn(bin_dir: Path, script: str) -> None:
    bin_dir.mkdir(parents=True)
    mvn = bin_dir / "mvn"
    mvn.write_text("#!/bin/sh\n" + script)
    mvn.chmod(0o755)


def test_present_jars_need_no_maven(tmp_path: Path) -> None:
    jars = _installed(tmp_path / "lib", "5.26.30")
    assert installed_version(jars) == "5.26.30"
    assert ensure_jars(jars, "5.26.30", tmp_path / "maven.log", env={"PATH": ""}) is False


def test_a_marker_without_its_jar_does_not_count(tmp_path: Path) -> None:
    jars = _installed(tmp_path / "lib", "5.26.30")
    (jars / "neo4j-5.26.30.jar").unlink()
    assert installed_version(jars) is None


def test_missing_maven_is_reported_when_jars_are_needed(tmp_path: Path) -> None:
    with pytest.raises(MavenNotFoundError, match="mvn"):
        ensure_jars(tmp_path / "lib", "5.26.30", tmp_path / "maven.log", env={"PATH": str(tmp_path)})


def test_a_new_version_needs_maven_again(tmp_path: Path) -> None:
    jars = _installed(tmp_path / "lib", "5.26.0")
    with pytest.raises(MavenNotFoundError):
        ensure_jars(jars, "5.26.30", tmp_path / "maven.log", env={"PATH": str(tmp_path)})


def test_maven_failure_carries_the_log_tail_and_keeps_old_jars(tmp_path: Path) -> None:
    _fake_mvn(tmp_path / "bin", "echo '[ERROR] Could not resolve org.neo4j:neo4j:jar:9.9.9'\nexit 1\n")
    jars = _installed(tmp_path / "lib", "5.26.0")
    with pytest.raises(RuntimeSetupError, match=r"Could not resolve org\.neo4j:neo4j:jar:9\.9\.9"):
        ensure_jars(jars, "9.9.9", tmp_path / "maven.log", env={"PATH": str(tmp_path / "bin")})
    assert installed_version(jars) == "5.26.0"
    assert "Could not resolve" in (tmp_path / "maven.log").read_text()


def test_a_foreign_non_empty_dir_is_not_replaced(tmp_path: Path) -> None:
    _fake_mvn(tmp_path / "bin", "exit 1\n")
    jars = tmp_path / "mine"
    jars.mkdir()
    (jars / "thesis.tex").write_text("precious")
    with pytest.raises(RuntimeSetupError, match="did not put there"):
        ensure_jars(jars, "5.26.30", tmp_path / "maven.log", env={"PATH": str(tmp_path / "bin")})
    assert (jars / "thesis.tex").read_text() == "precious"


@pytest.mark.parametrize("version", ["", "latest", "5", "5.26.30; rm -rf /", "../5.26"])
def test_bad_versions_are_rejected(version: str) -> None:
    with pytest.raises(InvalidInputError, match="GRAPHMEM_NEO4J_VERSION"):
        validate_version(version)


@pytest.mark.parametrize("version", ["5.26.30", "5.26.0", "2025.01.0", "5.27.0-SNAPSHOT"])
def test_release_versions_are_accepted(version: str) -> None:
    assert validate_version(version) == version
