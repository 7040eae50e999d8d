"""X5 key bindings as pure logic: an agent's key writes in its space and reads its tenant."""

from __future__ import annotations

import pytest

from graphmem.config import parse_api_key
from graphmem.errors import ScopeForbiddenError
from graphmem.tenancy import (
    Grant,
    binding,
    check_writable,
    confined,
    current_allowed,
    current_for,
    current_writable,
    describe,
    narrowed,
)


def test_a_binding_is_a_plain_list_unless_it_reads_more_than_it_writes() -> None:
    assert binding(None) is None
    assert binding(["/user/alice/"]) == ["/user/alice"] and not isinstance(binding(["/user/alice"]), Grant)
    agent = binding(["/org/acme/agent/planner"], ["/org/acme"])
    assert isinstance(agent, Grant) and agent.writes == ["/org/acme/agent/planner"]
    assert describe(agent) == "/org/acme/agent/planner|read:/org/acme"
    assert describe(binding(None, ["/org/acme"])) == "read:/org/acme"
    assert describe(None) == "(unbound)"


def test_the_env_syntax_round_trips_through_describe() -> None:
    for entry in ("k@/org/a/agent/p|read:/org/a", "k@read:/org/a", "k@/user/x|/team/y"):
        secret, bound = parse_api_key(entry)
        assert secret == "k" and f"k@{describe(bound)}" == entry


def test_queries_of_write_mode_get_the_write_scopes() -> None:
    with confined(Grant(["/org/a/agent/p", "/org/a"], ["/org/a/agent/p"])):
        assert current_allowed() == ["/org/a"]
        assert current_writable() == ["/org/a/agent/p"]
        assert current_for("read") == ["/org/a"] and current_for("write") == ["/org/a/agent/p"]
        check_writable("/org/a/agent/p/notes")
        with pytest.raises(ScopeForbiddenError, match="/org/a/agent/p"):
            check_writable("/org/a/agent/q")
        with confined(["/org/a/agent/q"]):  # nesting narrows both
            assert current_allowed() == ["/org/a/agent/q"] and current_writable() == []
    assert current_allowed() is None and current_writable() is None


def test_a_read_only_key_writes_nowhere_and_says_so() -> None:
    with confined(Grant(["/org/a"], [])), pytest.raises(ScopeForbiddenError, match="only reads"):
        check_writable("/org/a")


def test_narrowing_a_grant_keeps_it_a_grant() -> None:
    grant = Grant(["/org/a"], ["/org/a/agent/p"])
    kept = narrowed(grant, ["/org/a/agent"])
    assert isinstance(kept, Grant) and list(kept) == ["/org/a/agent"] and kept.writes == ["/org/a/agent/p"]
    assert narrowed(["/user/x"], ["/"]) == ["/user/x"]
