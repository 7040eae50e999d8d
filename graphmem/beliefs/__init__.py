"""W5 belief updates: deciding when a new statement replaces an old one, and recording it."""
