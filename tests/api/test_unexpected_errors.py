"""Whatever fails unexpectedly answers JSON in the documented error shape, and the client goes on."""

from __future__ import annotations

from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.memory import Memory


def test_an_unexpected_error_is_a_json_500_and_the_next_request_works(memory: Memory) -> None:
    app = create_app(memory, flush_idle_minutes=None)

    @app.get("/v1/boom")
    def boom() -> None:
        raise RuntimeError("secret value 4711")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/v1/boom")
        assert response.status_code == 500
        assert response.headers["content-type"].startswith("application/json")
        error = response.json()["error"]
        assert error["code"] == "internal_error"
        assert "4711" not in error["message"]
        assert client.get("/v1/health").status_code == 200
