"""The Lucene query a recall sends to the fulltext indexes."""

from __future__ import annotations

from graphmem.store.fulltext import keyword_params, survives_analysis


def test_a_scoped_recall_asks_the_scoped_index_for_its_scopes() -> None:
    assert keyword_params("bob OR car", ["/user/alice", "/team/x1"]) == {
        "text": 'text:(bob OR car) AND scope:("/user/alice" OR "/team/x1")^0',
        "text_in_scopes": True,
    }


def test_a_whole_graph_recall_or_no_words_leaves_the_query_as_is() -> None:
    assert keyword_params("bob", None) == {"text": "bob", "text_in_scopes": False}
    assert keyword_params(None, ["/user/alice"]) == {"text": None, "text_in_scopes": False}


def test_a_scope_the_analyzer_may_empty_is_not_filtered_in_the_index() -> None:
    assert not survives_analysis("/the/a")
    assert not survives_analysis("/it.is/x_y")
    assert survives_analysis("/the/alice")
    assert keyword_params("bob", ["/user/alice", "/the/it"]) == {"text": "bob", "text_in_scopes": False}


def test_quotes_and_backslashes_in_a_scope_cannot_break_the_phrase() -> None:
    text = keyword_params("bob", ['/user/al"ice\\'])["text"]
    assert text == 'text:(bob) AND scope:("/user/al\\"ice\\\\")^0'
