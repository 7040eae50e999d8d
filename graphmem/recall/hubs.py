"""Hubs: memories close to every other memory, and so to every question about their owner.

In a small memory about one person, the sentence vectors are carried by the person's name: a
short memory that says little more than the name ("Priya lives in Bengaluru.", "Siobhán's
birthday is 17 March.") is near all the others, and near any question naming her ("Where does
Priya work now?", "How does Siobhán get around these days?"), above the memory that answers it.
This is the hubness of nearest-neighbour search in high dimensions, and its usual remedy is
centring: measure similarity from the centre of the collection instead of from the origin. Here
the collection is the recall's candidates: a memory's **centrality** is its mean cosine to the
other candidates, and its cosine to the query is lowered by ``weight`` times how much more central
it is than the candidates are on average (a memory less central than average is raised as much).
The mean score of the candidates is unchanged, so the cosine scale the other signals are weighed
against stays where it was; what a memory shares with all the others stops counting as evidence
that it answers, as a word every candidate shares does for the keyword shares
(recall/keywords.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from graphmem.recall.ranking import Evidence


def centred(
    evidence: Mapping[str, Evidence], centrality: Mapping[str, float], weight: float
) -> dict[str, Evidence]:
    """``evidence`` with each cosine (and episode-context cosine) of a memory in ``centrality``
    moved by ``weight`` times its centrality's distance below the candidates' mean; the others as
    they are (a candidate the graph held no vector for, or nothing when fewer than two are known)."""
    known = [m for m in evidence if m in centrality]
    if weight == 0 or len(known) < 2:
        return dict(evidence)
    mean = sum(centrality[m] for m in known) / len(known)
    out = dict(evidence)
    for memory_id in known:
        shift = weight * (centrality[memory_id] - mean)
        e = evidence[memory_id]
        out[memory_id] = e._replace(
            cosine=e.cosine - shift, context=e.context - shift if e.context else e.context
        )
    return out
