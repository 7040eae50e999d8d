"""Checking the server's ports on the loopback interface."""

from __future__ import annotations

import socket

from graphmem.errors import PortInUseError

LOOPBACK = "127.0.0.1"


def port_is_free(port: int, host: str = LOOPBACK) -> bool:
    """Return True if a listening socket could be bound to ``host:port`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # Like the server's own sockets: a port in TIME_WAIT after a stop counts as free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = LOOPBACK) -> int:
    """A TCP port nobody listens on right now (for throw-away servers in tests and benchmarks)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_answers(port: int, host: str = LOOPBACK, timeout: float = 1.0) -> bool:
    """Return True if something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def ensure_ports_free(bolt_port: int, http_port: int) -> None:
    """Check that nothing holds the Bolt or HTTP port.

    Raises:
        PortInUseError: a port is taken; the message names the setting to change.
    """
    for port, kind, setting in (
        (bolt_port, "Bolt", "GRAPHMEM_NEO4J_BOLT_PORT"),
        (http_port, "HTTP", "GRAPHMEM_NEO4J_HTTP_PORT"),
    ):
        if not port_is_free(port):
            raise PortInUseError(
                f"port {port} (Neo4j {kind}) on {LOOPBACK} is already in use by another program; "
                f"stop it or set {setting} to a free port"
            )
