"""X3: exploring the memory graph in Neo4j Browser.

A GraSS style sheet (``style.grass``: captions, colours by layer), saved views (the read queries
in ``cypher/browser/``), a Browser guide that offers them as runnable slides, and the links and
commands that open all of it (``graphmem browser``). The graphmem API serves the guide and the
style at ``/browser/guide.html`` and ``/browser/style.grass``.
"""
