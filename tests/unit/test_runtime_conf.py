"""The managed Neo4j's generated configuration, password file, and Java detection."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from graphmem.errors import InvalidInputError, JavaNotFoundError
from graphmem.runtime.conf import ensure_password, read_listen_ports, render_conf
from graphmem.runtime.java import find_java, locate_java, parse_java_major, server_jvm_flags
from graphmem.runtime.layout import RuntimeLayout


def _conf(
    tmp_path: Path,
    version: str = "5.26.30",
    *,
    bolt_port: int = 17687,
    http_port: int = 17474,
    heap: str = "1g",
    pagecache: str = "256m",
) -> dict[str, str]:
    """Render a conf and return its settings as a dict."""
    text = render_conf(RuntimeLayout(tmp_path), version, bolt_port, http_port, heap, pagecache)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return dict(line.split("=", 1) for line in lines)


def test_conf_listens_on_loopback_only_with_configured_ports(tmp_path: Path) -> None:
    conf = _conf(tmp_path)
    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.listen_address"] == "127.0.0.1:17687"
    assert conf["server.http.listen_address"] == "127.0.0.1:17474"
    assert conf["server.bolt.advertised_address"] == "127.0.0.1:17687"
    assert conf["server.http.advertised_address"] == "127.0.0.1:17474"
    assert conf["server.https.enabled"] == "false"
    assert not any("0.0.0.0" in value for value in conf.values())


def test_conf_turns_auth_on_and_usage_report_off(tmp_path: Path) -> None:
    conf = _conf(tmp_path)
    assert conf["dbms.security.auth_enabled"] == "true"
    assert conf["dbms.usage_report.enabled"] == "false"


def test_conf_memory_comes_from_settings(tmp_path: Path) -> None:
    conf = _conf(tmp_path, heap="2g", pagecache="768m")
    assert conf["server.memory.heap.initial_size"] == "2g"
    assert conf["server.memory.heap.max_size"] == "2g"
    assert conf["server.memory.pagecache.size"] == "768m"


def test_conf_keeps_data_logs_and_run_under_home(tmp_path: Path) -> None:
    conf = _conf(tmp_path)
    root = tmp_path / "neo4j"
    assert conf["server.directories.data"] == str(root / "data")
    assert conf["server.directories.logs"] == str(root / "logs")
    assert conf["server.directories.run"] == str(root / "run")
    assert conf["server.directories.plugins"] == str(root / "plugins")


def test_internal_fast_shutdown_setting_only_for_5x(tmp_path: Path) -> None:
    # Strict config validation rejects unknown settings, so a non-5.x release must not get it.
    assert "internal.dbms.bolt.netty_server_shutdown_quiet_period" in _conf(tmp_path, "5.26.30")
    assert not any(key.startswith("internal.") for key in _conf(tmp_path, "2025.01.0"))


def test_listen_ports_read_back_from_rendered_conf(tmp_path: Path) -> None:
    text = render_conf(RuntimeLayout(tmp_path), "5.26.30", 23456, 23457, "1g", "512m")
    assert read_listen_ports(text) == (23456, 23457)
    assert read_listen_ports("server.https.enabled=false\n") is None


@pytest.mark.parametrize("field", ["heap", "pagecache"])
@pytest.mark.parametrize("value", ["", "1 g", "lots", "0", "-1g", "1gb"])
def test_bad_memory_sizes_are_rejected_naming_the_setting(tmp_path: Path, field: str, value: str) -> None:
    sizes = {"heap": "1g", "pagecache": "256m", field: value}
    with pytest.raises(InvalidInputError, match=f"GRAPHMEM_NEO4J_{field.upper()}"):
        _conf(tmp_path, heap=sizes["heap"], pagecache=sizes["pagecache"])


def test_bad_ports_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="GRAPHMEM_NEO4J_BOLT_PORT"):
        _conf(tmp_path, bolt_port=70000)
    with pytest.raises(InvalidInputError, match="must differ"):
        _conf(tmp_path, bolt_port=9000, http_port=9000)


def test_password_is_generated_once_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "neo4j" / "password"
    first = ensure_password(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ensure_password(path) == first
    # Letters and digits only: neo4j-admin would read a leading "-" as an option.
    assert len(first) >= 24 and first.isalnum()


def test_password_file_with_loose_mode_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "password"
    path.write_text("secret123\n")
    path.chmod(0o644)
    assert ensure_password(path) == "secret123"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("output", "major"),
    [
        ('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6)', 17),
        ('openjdk version "21" 2023-09-19', 21),
        ('openjdk version "22-ea" 2024-03-19', 22),
        ('java version "1.8.0_292"\nJava(TM) SE Runtime Environment', 8),
        ('Picked up JAVA_TOOL_OPTIONS: -Xss2m\nopenjdk version "11.0.2" 2019-01-15', 11),
    ],
)
def test_java_major_version_is_parsed(output: str, major: int) -> None:
    assert parse_java_major(output) == major


def test_unreadable_java_version_raises() -> None:
    with pytest.raises(JavaNotFoundError):
        parse_java_major("bash: java: command not found")


def test_vector_module_flag_only_from_java_21() -> None:
    assert "--add-modules=jdk.incubator.vector" not in server_jvm_flags(17)
    assert "--add-modules=jdk.incubator.vector" in server_jvm_flags(21)


def _fake_java(bin_dir: Path, version: str) -> Path:
    """A ``java`` that only answers ``-version``, as a real one does, on stderr."""
    bin_dir.mkdir(parents=True)
    java = bin_dir / "java"
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\"' >&2\n")
    java.chmod(0o755)
    return java


def test_old_java_is_refused(tmp_path: Path) -> None:
    _fake_java(tmp_path / "bin", "11.0.2")
    with pytest.raises(JavaNotFoundError, match="Java 11"):
        find_java({"PATH": str(tmp_path / "bin")})


def test_java_home_wins_over_path(tmp_path: Path) -> None:
    _fake_java(tmp_path / "old" / "bin", "11.0.2")
    java = _fake_java(tmp_path / "jdk21" / "bin", "21.0.1")
    found = find_java({"PATH": str(tmp_path / "old" / "bin"), "JAVA_HOME": str(tmp_path / "jdk21")})
    assert (found.path, found.major) == (java, 21)


def test_missing_java_is_reported(tmp_path: Path) -> None:
    with pytest.raises(JavaNotFoundError, match="PATH"):
        locate_java({"PATH": str(tmp_path)})
    with pytest.raises(JavaNotFoundError, match="JAVA_HOME"):
        locate_java({"PATH": "", "JAVA_HOME": str(tmp_path / "nowhere")})
