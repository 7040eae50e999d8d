"""Memories that state an amount of money, whose MiniLM cosine a shared price pattern inflates
(used by C1).

Two memories that each name a price ('Bought a second-hand piano for £350', 'Picked a hybrid bike
for £680') sit closer under MiniLM than their subjects do. On the dev halves of the five topic
sets, pairs of different threads that both state an amount of money have a mean cosine of 0.28
(207 pairs), the other pairs of different threads 0.08-0.09; pairs of one thread 0.41 (22)
against 0.23-0.29. Four threads of things bought in pounds (a piano, running shoes, a car's MOT,
a bike) made one topic of topics5's dev half, at cosines above most of their threads' own. C1
takes ``TopicWeights.priced`` off the cosine of such a pair: a shared price pattern is no topic.
No other pattern measured so inflates the cosine: a number of any kind +0.03 across threads, a
month +0.04, a weekday +0.10 (but as much inside a thread), a clock time +0.04.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

# a currency sign or code before a number, or a number before a unit of money
_MONEY = re.compile(
    r"[£$€¥₹]\s?\d"
    r"|\b(?:gbp|usd|eur)\s?\d"
    r"|\d(?:[\d,.]*\d)?\s?(?:grand|pounds?|quid|dollars?|euros?|pence|p|bucks)\b",
    re.IGNORECASE,
)


def states_money(text: str) -> bool:
    """Whether ``text`` states an amount of money ('£350', '$1,200', '40 quid', '50p'; not '18k
    miles', '3pm')."""
    return _MONEY.search(text) is not None


def both_priced(
    texts: Mapping[str, str],
    nodes: Sequence[str],
    low: NDArray[np.int64],
    high: NDArray[np.int64],
) -> NDArray[np.float64]:
    """1.0 for each pair (node indices ``low``, ``high``) whose two texts both state an amount of
    money, else 0.0."""
    money = np.fromiter((states_money(texts.get(node, "")) for node in nodes), dtype=bool, count=len(nodes))
    out: NDArray[np.float64] = (money[low] & money[high]).astype(np.float64)
    return out
