"""Graph queries for agents (X4): safe read-only Cypher and ready-made query tools."""

from graphmem.agents.models import AgentQuery, CypherResult

__all__ = ["AgentQuery", "CypherResult"]
