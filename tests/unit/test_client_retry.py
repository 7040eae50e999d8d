"""The REST client's retries and error mapping, against scripted HTTP answers (httpx.MockTransport).

Only HTTP is scripted here; the client against the real server and Neo4j is tests/api/test_client.py.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest

from graphmem.client import AsyncClient, Client, RetryPolicy
from graphmem.client._retry import backoff_delay, retry_after_seconds
from graphmem.errors import (
    APIError,
    APIUnreachableError,
    AuthenticationError,
    DatabaseUnavailableError,
    InvalidInputError,
    NotFoundError,
    TextTooLongError,
    WriteQueueFullError,
)
from graphmem.models import MemoryDetail, RecallResult, WriteResult

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
MEMORY: dict[str, Any] = {
    "id": "m-1",
    "text": "Alice prefers green tea.",
    "layer": "episodic",
    "scope": "/user/alice",
    "categories": ["preference"],
    "importance": 0.6,
    "confidence": 0.9,
    "strength": 1.0,
    "status": "active",
    "created_at": NOW.isoformat(),
    "occurred_at": NOW.isoformat(),
}
Step = httpx.Response | Exception


def error(status: int, code: str, message: str, **headers: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": message}}, headers=headers)


class Script:
    """Answers requests with the given steps in order and records what was asked."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        return step


def client(script: Script, sleeps: list[float], retries: int = 3, **kwargs: Any) -> Client:
    return Client(
        "http://graphmem.test:8000",
        transport=httpx.MockTransport(script),
        retry=RetryPolicy(retries=retries, base_delay=0.5, max_delay=8.0, max_retry_after=60.0),
        sleep=sleeps.append,
        **kwargs,
    )


def test_503_is_retried_after_exactly_the_retry_after_wait() -> None:
    script = Script(
        error(503, "neo4j_unavailable", "Neo4j is restarting.", **{"Retry-After": "7"}),
        httpx.Response(200, json=MEMORY),
    )
    sleeps: list[float] = []
    got = client(script, sleeps).get("m-1")
    assert isinstance(got, MemoryDetail) and got.text == "Alice prefers green tea."
    assert sleeps == [7.0]
    assert len(script.requests) == 2


def test_retry_after_as_an_http_date() -> None:
    when = format_datetime(NOW + timedelta(seconds=30), usegmt=True)
    assert retry_after_seconds({"retry-after": when}, now=NOW) == 30.0
    assert retry_after_seconds({"retry-after": "1.5"}, now=NOW) == 1.5
    past = format_datetime(NOW - timedelta(minutes=5), usegmt=True)
    assert retry_after_seconds({"retry-after": past}, now=NOW) == 0.0
    assert retry_after_seconds({"retry-after": "soon"}, now=NOW) is None
    assert retry_after_seconds({}, now=NOW) is None


def test_a_rate_limited_write_is_sent_again() -> None:
    script = Script(
        error(429, "rate_limited", "Slow down.", **{"Retry-After": "2"}),
        httpx.Response(201, json={"memory": MEMORY, "actions": ["created"]}),
    )
    sleeps: list[float] = []
    result = client(script, sleeps).remember("Alice prefers green tea.", scope="/user/alice")
    assert isinstance(result, WriteResult) and result.actions == ["created"]
    assert sleeps == [2.0]
    assert [r.method for r in script.requests] == ["POST", "POST"]


def test_422_is_not_retried_and_carries_the_servers_message() -> None:
    message = "Invalid session id 'a b': use 1-128 letters, digits and . _ @ : + - (no spaces or slashes)."
    script = Script(error(422, "invalid_input", message))
    sleeps: list[float] = []
    with pytest.raises(InvalidInputError) as raised:
        client(script, sleeps).conversation("a b")
    assert str(raised.value) == message
    assert sleeps == [] and len(script.requests) == 1


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        (error(401, "unauthorized", "Missing or wrong API key."), AuthenticationError),
        (error(404, "not_found", "No memory has id 'm-9'."), NotFoundError),
        (error(413, "text_too_long", "Item 0: text is 40000 bytes."), TextTooLongError),
        (error(409, "conflict", "Already running."), APIError),
    ],
)
def test_client_errors_map_to_graphmem_errors_without_retry(
    answer: httpx.Response, kind: type[Exception]
) -> None:
    script = Script(answer)
    sleeps: list[float] = []
    with pytest.raises(kind):
        client(script, sleeps).get("m-9")
    assert sleeps == [] and len(script.requests) == 1


def test_an_error_that_is_not_graphmems_json_is_an_api_error_with_its_status() -> None:
    script = Script(httpx.Response(500, text="<html>Internal Server Error</html>"))
    with pytest.raises(APIError) as raised:
        client(script, []).get("m-1")
    assert raised.value.status == 500 and raised.value.code == "http_error"
    assert "Internal Server Error" in str(raised.value)


def test_a_full_write_queue_is_retried_then_raised_as_such() -> None:
    script = Script(*[error(503, "write_queue_full", "The write queue is full; retry later.")] * 2)
    sleeps: list[float] = []
    with pytest.raises(WriteQueueFullError):
        client(script, sleeps, retries=1).remember_batch(["one", "two"], background=True)
    assert len(script.requests) == 2 and len(sleeps) == 1


def test_retries_run_out_with_growing_jittered_waits() -> None:
    script = Script(*[error(503, "neo4j_unavailable", "Neo4j is down; run graphmem neo4j start.")] * 4)
    sleeps: list[float] = []
    with pytest.raises(DatabaseUnavailableError, match="graphmem neo4j start"):
        client(script, sleeps, retries=3).get("m-1")
    assert len(script.requests) == 4
    for wait, ceiling in zip(sleeps, [0.5, 1.0, 2.0], strict=True):
        assert ceiling / 2 <= wait <= ceiling
    policy = RetryPolicy(base_delay=0.5, max_delay=8.0)
    assert backoff_delay(10, policy, rand=lambda: 1.0) == 8.0  # capped
    assert backoff_delay(0, policy, rand=lambda: 0.0) == 0.25  # never at once


def test_a_retry_after_longer_than_allowed_gives_up_at_once() -> None:
    script = Script(error(503, "neo4j_unavailable", "Maintenance.", **{"Retry-After": "3600"}))
    sleeps: list[float] = []
    with pytest.raises(DatabaseUnavailableError):
        client(script, sleeps).get("m-1")
    assert sleeps == [] and len(script.requests) == 1


def test_a_bad_gateway_is_retried_for_reads_only() -> None:
    read = Script(httpx.Response(502, text="bad gateway"), httpx.Response(200, json=MEMORY))
    assert client(read, []).get("m-1").id == "m-1"
    write = Script(httpx.Response(502, text="bad gateway"))
    with pytest.raises(APIError) as raised:
        client(write, []).remember("Alice prefers green tea.")
    assert raised.value.status == 502 and len(write.requests) == 1


def test_a_write_is_resent_only_when_it_never_left() -> None:
    refused = Script(
        httpx.ConnectError("connection refused"),
        httpx.Response(201, json={"memory": MEMORY, "actions": ["created"]}),
    )
    assert client(refused, []).remember("Alice prefers green tea.").actions == ["created"]
    timed_out = Script(httpx.ReadTimeout("no answer"))
    with pytest.raises(APIUnreachableError, match="may have been applied"):
        client(timed_out, []).remember("Alice prefers green tea.")
    assert len(timed_out.requests) == 1


def test_a_read_is_resent_after_a_timeout() -> None:
    answer = {"results": [], "confidence": 0.0, "evidence_gaps": ["tea"]}
    script = Script(httpx.ReadTimeout("no answer"), httpx.Response(200, json=answer))
    result = client(script, []).recall("What does Alice drink?", scope="/user/alice")
    assert isinstance(result, RecallResult) and result.evidence_gaps == ["tea"]
    assert len(script.requests) == 2


def test_an_unreachable_server_names_the_url_after_the_retries() -> None:
    script = Script(*[httpx.ConnectError("connection refused")] * 3)
    sleeps: list[float] = []
    with pytest.raises(APIUnreachableError, match=r"graphmem\.test:8000/v1/memories/m-1.*graphmem serve"):
        client(script, sleeps, retries=2).get("m-1")
    assert len(sleeps) == 2


def test_health_503_is_a_report_not_an_error() -> None:
    report = {"status": "unavailable", "neo4j": {"reachable": False}, "counts": {}}
    script = Script(httpx.Response(503, json=report))
    sleeps: list[float] = []
    assert client(script, sleeps).health().status == "unavailable"
    assert sleeps == []


def test_bad_arguments_fail_before_anything_is_sent() -> None:
    script = Script()
    with pytest.raises(InvalidInputError, match="importance"):
        client(script, []).remember("Alice prefers green tea.", importance=2.0)
    with pytest.raises(InvalidInputError, match="at least one"):
        client(script, []).forget()
    assert script.requests == []


def test_key_path_and_body_of_a_request() -> None:
    script = Script(httpx.Response(200, json={"deleted": 3}))
    api = Client("http://graphmem.test:8000/v1/", api_key="k-one", transport=httpx.MockTransport(script))
    assert api.forget(scope="/user/alice/", categories=["Health"]) == 3
    sent = script.requests[0]
    assert str(sent.url) == "http://graphmem.test:8000/v1/forget"
    assert sent.headers["authorization"] == "Bearer k-one"
    assert sent.read() == b'{"scope":"/user/alice","categories":["health"]}'


def test_a_route_the_server_lacks_says_so() -> None:
    script = Script(error(404, "not_found", "Not Found"))
    with pytest.raises(APIError) as raised:
        client(script, []).cypher("MATCH (m:Memory) RETURN count(m) AS n")
    assert raised.value.code == "no_such_route" and "older graphmem" in str(raised.value)


def run(coroutine_factory: Callable[[], Any]) -> Any:
    return asyncio.run(coroutine_factory())


def test_async_client_retries_the_same_way() -> None:
    script = Script(
        error(503, "neo4j_unavailable", "Neo4j is restarting.", **{"Retry-After": "4"}),
        httpx.Response(200, json=MEMORY),
        error(422, "invalid_input", "Invalid request: limit: too big"),
    )
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    async def scenario() -> MemoryDetail:
        async with AsyncClient(
            "http://graphmem.test:8000", transport=httpx.MockTransport(script), sleep=sleep
        ) as api:
            got = await api.get("m-1")
            with pytest.raises(InvalidInputError, match="limit: too big"):
                await api.get("m-2")
            return got

    assert run(scenario).id == "m-1"
    assert sleeps == [4.0] and len(script.requests) == 3


def test_the_client_needs_neither_the_driver_nor_the_model() -> None:
    code = (
        "import sys, graphmem; graphmem.Client, graphmem.AsyncClient; "
        "heavy = {'neo4j', 'numpy', 'onnxruntime', 'fastapi'} & set(sys.modules); "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
