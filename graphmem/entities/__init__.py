"""W6 entities: finding what memories mention, resolving mentions to one entity per name and scope,
and linking memories to them (``MENTIONS``). See :class:`graphmem.entities.linker.EntityLinker`.

Kept free of imports so that ``graphmem.store`` may use the pure naming functions of
:mod:`graphmem.entities.names` without a cycle.
"""
