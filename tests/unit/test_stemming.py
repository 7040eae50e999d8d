"""Word stems asked for by many threads at once (concurrent recalls) are each word's own."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import snowballstemmer

from graphmem import stemming


def test_threads_stemming_at_once_get_the_stems_of_their_own_words() -> None:
    words = [
        f"{base}{suffix}"
        for base in ("engineer", "national", "hope", "limit", "basketball")
        for suffix in ("", "s", "ing", "ational", "ization", "fulness", "ously", "ed")
    ]
    words = [f"{w}{'x' * n}" for n in range(40) for w in words]  # past the stem cache: the stemmer runs
    expected = {w: snowballstemmer.stemmer("english").stemWord(w) for w in words}
    stemming.stem.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(stemming.stem, words * 3))
    assert got == [expected[w] for w in words * 3]
