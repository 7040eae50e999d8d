"""Per-key rate limits: past its allowance a key gets 429 with Retry-After; other keys, and reads
versus writes, are counted apart."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.api.ratelimit import RateLimits, parse_limit
from graphmem.errors import InvalidInputError
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

TAG = uuid.uuid4().hex[:8]
SCOPE = f"/test/rate-{TAG}"


@pytest.fixture(scope="module")
def http(memory: Memory) -> Iterator[TestClient]:
    limits = RateLimits(parse_limit("3/minute", "reads"), parse_limit("2/minute", "writes"))
    app = create_app(memory, api_keys=["one", "two"], rate_limits=limits, flush_idle_minutes=None)
    with TestClient(app) as client:
        yield client


def test_a_key_past_its_allowance_gets_429_with_retry_after(http: TestClient) -> None:
    one = {"Authorization": "Bearer one"}
    codes = [
        http.post("/v1/recall", json={"query": "x", "scope": SCOPE}, headers=one).status_code
        for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]
    refused = http.post("/v1/recall", json={"query": "x", "scope": SCOPE}, headers=one)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # writes are counted apart, and so is another key
    body = {"text": f"Rate limits are per key {TAG}.", "scope": SCOPE}
    assert [http.post("/v1/memories", json=body, headers=one).status_code for _ in range(3)] == [
        201,
        201,
        429,
    ]
    two = {"Authorization": "Bearer two"}
    assert http.post("/v1/recall", json={"query": "x", "scope": SCOPE}, headers=two).status_code == 200
    # a wrong key is a 401, not a count
    assert (
        http.post("/v1/recall", json={"query": "x"}, headers={"Authorization": "Bearer no"}).status_code
        == 401
    )


def test_a_malformed_limit_says_how_to_write_one() -> None:
    with pytest.raises(InvalidInputError, match="600/minute"):
        parse_limit("lots", "GRAPHMEM_RATE_LIMIT_READS")
