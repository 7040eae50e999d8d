"""Choosing the Neo4j graphmem talks to: the one GRAPHMEM_NEO4J_URI names, or the managed local one."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.connect import Neo4jTarget
from graphmem.runtime.server import ManagedNeo4j


def resolve_target(settings: Settings) -> Neo4jTarget:
    """The configured external Neo4j, or the managed one (started if it is not running yet)."""
    if settings.neo4j_uri:
        password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
        return Neo4jTarget(
            uri=settings.neo4j_uri,
            user=settings.neo4j_user,
            password=password,
            database=settings.neo4j_database,
        )
    info = ManagedNeo4j.from_settings(settings).start()
    return Neo4jTarget(
        uri=info.uri,
        user=info.user,
        password=info.password.get_secret_value(),
        database=settings.neo4j_database,
    )
