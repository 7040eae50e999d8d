"""W7 decisions ledger: decisions stated in memories become ``Decision`` nodes, reversals link the
newer to the older with ``SUPERSEDES``. See :class:`graphmem.decisions.recorder.DecisionRecorder`.
"""
