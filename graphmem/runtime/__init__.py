"""The managed local Neo4j: fetch the jars with Maven, configure, start and stop (no Docker)."""

from graphmem.runtime.server import ConnectionInfo, ManagedNeo4j, RuntimeStatus

__all__ = ["ConnectionInfo", "ManagedNeo4j", "RuntimeStatus"]
