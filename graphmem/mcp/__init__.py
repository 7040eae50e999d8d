"""graphmem over the Model Context Protocol: ``graphmem mcp`` serves the Memory facade as tools."""
