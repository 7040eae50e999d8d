"""Consolidation ("sleep"): scheduled passes that distil episodes into knowledge and keep the graph healthy.

Nightly: flush idle conversations, merge near-duplicates (C3), cluster episodes into semantic
memories (C1). Weekly: category summaries (C5), archive what is unused (C4, with insights),
semantic memories into schemas (C2), priority snapshots and drift (C6). Monthly: re-embed when the
model changed (C7), move long-unused archives to cold storage, and a health snapshot.
"""
