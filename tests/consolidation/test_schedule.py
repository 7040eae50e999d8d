"""C8 and C4-C7: jobs on schedule under a graph lock, archiving by TTL, cold storage, summaries,
drift, re-embedding."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import neo4j
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from graphmem.api.app import create_app
from graphmem.cli import main
from graphmem.connect import Neo4jTarget
from graphmem.consolidate.background import BackgroundRuns
from graphmem.consolidate.models import ConsolidationReport, ConsolidationRun
from graphmem.errors import JobBusyError
from graphmem.memory import Memory
from graphmem.models import MemoryInput, MemoryPatch
from graphmem.store.jobs import JobStore
from tests.consolidation.conftest import MovableClock, cypher

SCOPE = "/user/cat"


def test_overdue_jobs_catch_up_and_then_wait_for_their_interval(sleeper: Memory, clock: MovableClock) -> None:
    first = sleeper.run_overdue_jobs(trigger="startup")
    assert [r.job for r in first.runs] == ["nightly", "weekly", "monthly"]
    assert sleeper.run_overdue_jobs().runs == []
    clock.advance(days=1, minutes=1)
    assert [r.job for r in sleeper.run_overdue_jobs().runs] == ["nightly"]
    clock.advance(days=7)
    assert [r.job for r in sleeper.run_overdue_jobs().runs] == ["nightly", "weekly"]
    report = sleeper.health_report()
    assert {j.name: j.overdue for j in report.jobs} == {"nightly": False, "weekly": False, "monthly": False}
    assert report.recent_runs[0].job in {"nightly", "weekly"}
    nightly = next(r for r in report.recent_runs if r.job == "nightly")
    assert list(nightly.step_ms) == ["extract", "C3 merge", "C1 episodic→semantic", "D1 decay"]


def test_a_job_locked_by_another_process_is_busy_until_its_lease_expires(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    jobs = JobStore(sleeper._executor)  # another process, as the graph sees it
    now = clock.now()
    assert jobs.acquire("nightly", "other-host:42", now, now + timedelta(minutes=10)) is not None
    jobs.start_run("nightly", "dead-run", "other-host:42", now, None, "cron")
    with pytest.raises(JobBusyError, match="already running"):
        sleeper.consolidate(["nightly"])
    assert [r.status for r in sleeper.consolidate(["nightly", "weekly"]).runs] == ["busy", "succeeded"]
    clock.advance(minutes=11)  # the other process died: its lease ran out
    run = sleeper.consolidate(["nightly"]).runs[0]
    assert run.status == "succeeded"
    statuses = cypher(sleep_driver, "MATCH (r:JobRun {job: 'nightly'}) RETURN r.id AS id, r.status AS status")
    assert {"id": "dead-run", "status": "interrupted"} in statuses


def test_unused_memories_archive_by_category_ttl_then_go_cold(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    hobby = [
        sleeper.remember(text, scope=SCOPE, categories=["hobby"]).memory
        for text in (
            "I go bouldering at the climbing gym on Mondays.",
            "Bouldering at the climbing gym is my favourite workout.",
            "I started bouldering at the climbing gym last year.",
        )
    ]
    health = sleeper.remember("I am allergic to penicillin.", scope=SCOPE, categories=["health"]).memory
    pinned = sleeper.remember("My climbing partner is Sam.", scope=SCOPE, categories=["hobby"]).memory
    sleeper.update(pinned.id, MemoryPatch(pinned=True))
    clock.advance(days=61)
    run = sleeper.consolidate(["weekly"]).runs[0]
    assert run.counts["archived"] == 3 and run.counts["insights"] == 1
    assert {sleeper.get(m.id).status for m in hobby} == {"archived"}
    labelled = cypher(sleep_driver, "MATCH (m:ArchivedMemory) RETURN m.id AS id")
    assert {r["id"] for r in labelled} == {m.id for m in hobby}  # greyed in Neo4j Browser
    assert sleeper.get(health.id).status == "active"
    assert sleeper.get(pinned.id).status == "active"
    found = sleeper.recall("bouldering at the climbing gym", scope=SCOPE)
    assert hobby[0].id not in {r.id for r in found.results}
    insight = next(r for r in found.results if r.layer == "semantic")
    assert set(sleeper.get(insight.id).derived_from) == {m.id for m in hobby}
    clock.advance(days=181)
    run = sleeper.consolidate(["monthly"]).runs[0]
    assert run.counts["cold"] == 3
    assert {sleeper.get(m.id).status for m in hobby} == {"cold"}


def test_category_summaries_and_priority_drift(
    sleeper: Memory, sleep_driver: neo4j.Driver, clock: MovableClock
) -> None:
    sleeper.remember_batch(
        [
            MemoryInput(text=t, scope=SCOPE, categories=["work"])
            for t in (
                "Review the quarterly roadmap with the product team.",
                "The payroll system migration is due in March.",
                "Hiring two backend engineers this quarter.",
                "The on-call rotation changes to weekly shifts.",
            )
        ]
    )
    first = sleeper.consolidate(["weekly"]).runs[0]
    assert first.counts["summaries"] >= 1 and first.counts["drift_first_snapshot"] == 1
    summary = cypher(
        sleep_driver, "MATCH (s:CategorySummary {category: 'work'}) RETURN s.text AS text, s.item_count AS n"
    )
    assert summary[0]["n"] == 4 and "roadmap" in str(summary[0]["text"])
    clock.advance(days=31)
    sleeper.remember_batch(
        [
            MemoryInput(text=t, scope=SCOPE, categories=["hobby"], importance=0.9)
            for t in (
                "Learning the guitar solo from Hotel California.",
                "Bought a new set of climbing shoes.",
                "Painting watercolour landscapes on Sundays.",
                "Joined a chess club that meets on Wednesdays.",
                "Planning a kayaking trip on the river.",
                "Started a sourdough starter named Bob.",
                "Trying to run a half marathon in spring.",
                "Building a birdhouse from reclaimed wood.",
            )
        ]
    )
    second = sleeper.consolidate(["weekly"]).runs[0]
    assert second.counts["drift_deliberate_pivot"] == 1
    snap = cypher(
        sleep_driver,
        "MATCH (p:PrioritySnapshot) RETURN p.drift AS drift, p.gained AS gained "
        "ORDER BY p.taken_at DESC LIMIT 1",
    )
    assert snap[0] == {"drift": "deliberate_pivot", "gained": "hobby"}


def test_reembedding_when_the_model_changed(sleeper: Memory, sleep_driver: neo4j.Driver) -> None:
    kept = sleeper.remember("The office moved to the fourth floor.", scope=SCOPE).memory
    sleep_driver.execute_query("MATCH (m:Memory) SET m.embedding = [x IN m.embedding | 0.0 - x]")
    sleep_driver.execute_query(
        "MATCH (g:GraphmemMeta {key: 'embedding_model'}) SET g.value = 'old-model@384'"
    )
    sleeper._ready = False
    assert sleeper.health().status == "degraded"
    run = sleeper.consolidate(["monthly"]).runs[0]
    assert run.counts["reembedded"] == 1
    assert sleeper.health().status == "ok"
    assert sleeper.recall("Which floor is the office on?", scope=SCOPE).results[0].id == kept.id


def test_writes_during_consolidation_are_neither_lost_nor_duplicated(sleeper: Memory) -> None:
    from bench.planted_corpus import planted_corpus

    sleeper.remember_batch(
        [MemoryInput(text=e.text, scope=SCOPE) for e in planted_corpus(topics=10, per_topic=10, noise=0)]
    )
    texts = [f"Concurrent note {i}: the parcel number is {1000 + i * 37}." for i in range(40)]
    written: list[str] = []
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for text in texts:
                written.append(sleeper.remember(text, scope="/user/writer").memory.id)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    thread = threading.Thread(target=writer)
    thread.start()
    report = sleeper.consolidate(["nightly"])
    thread.join()
    assert not errors and report.runs[0].status == "succeeded"
    assert len(set(written)) == len(texts)
    stored = [sleeper.get(i) for i in written]
    assert sorted(m.text for m in stored) == sorted(texts)
    again = sleeper.consolidate(["nightly"]).runs[0]
    assert again.status == "succeeded"
    assert all(sleeper.get(i).status in {"active", "superseded"} for i in written)


def test_rest_consolidate_and_health_report(sleeper: Memory) -> None:
    sleeper.remember("The team ships on Thursdays.", scope=SCOPE, categories=["work"])
    with TestClient(create_app(sleeper, flush_idle_minutes=None)) as client:
        answer = client.post("/v1/consolidate", params={"wait": "true"}, json={"jobs": ["nightly"]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["runs"][0]["job"] == "nightly"
        assert client.post("/v1/consolidate", json={"jobs": ["hourly"]}).status_code == 422
        report = client.get("/v1/health/report")
        assert report.status_code == 200
        body = report.json()
        assert body["by_layer"]["episodic"]["active"] == 1
        assert body["by_category"]["work"]["active"] == 1
        assert sum(body["staleness"].values()) == 1
        assert [j["name"] for j in body["jobs"]] == ["nightly", "weekly", "monthly"]


def test_staleness_counts_from_when_a_memory_happened_or_was_last_used(
    sleeper: Memory, clock: MovableClock
) -> None:
    sleeper.remember(
        "Alice adopted a cat named Miso.", scope=SCOPE, occurred_at=datetime(2023, 5, 1, tzinfo=UTC)
    )
    sleeper.remember(
        "Alice ran the Berlin marathon.", scope=SCOPE, occurred_at=datetime(2023, 9, 24, tzinfo=UTC)
    )
    sleeper.remember("Alice started learning Portuguese.", scope=SCOPE)
    assert sleeper.health_report().staleness == {"0-7d": 1, "7-30d": 0, "30-90d": 0, "90-180d": 0, "180d+": 2}
    clock.advance(hours=1)
    sleeper.recall("What pet does Alice have?", scope=SCOPE, limit=1)  # using it makes it fresh
    sleeper.settle()
    assert sleeper.health_report().staleness["0-7d"] == 2


def test_rest_consolidate_answers_at_once_and_the_run_can_be_followed(sleeper: Memory) -> None:
    sleeper.remember("The team ships on Thursdays.", scope=SCOPE, categories=["work"])
    with TestClient(create_app(sleeper, flush_idle_minutes=None)) as client:
        started = client.post("/v1/consolidate", json={"jobs": ["nightly"]})
        assert started.status_code == 202, started.text
        body = started.json()
        assert body["state"] == "running" and body["jobs"] == ["nightly"] and body["report"] is None
        for _ in range(600):
            run = client.get(f"/v1/consolidate/runs/{body['id']}")
            assert run.status_code == 200, run.text
            if run.json()["state"] != "running":
                break
            time.sleep(0.1)
        done = run.json()
        assert done["state"] == "succeeded", done
        assert done["finished_at"] is not None
        assert [r["job"] for r in done["report"]["runs"]] == ["nightly"]
        recent = {r["run_id"] for r in client.get("/v1/health/report").json()["recent_runs"]}
        assert done["report"]["runs"][0]["run_id"] in recent
        missing = client.get("/v1/consolidate/runs/no-such-run")
        assert missing.status_code == 404 and "no consolidation run" in missing.json()["error"]["message"]
        assert client.post("/v1/consolidate", json={"jobs": ["hourly"]}).status_code == 422


def test_a_run_started_through_one_api_process_is_followed_through_another(build) -> None:  # type: ignore[no-untyped-def]
    first, second = build(), build()  # two processes' Memory objects against one Neo4j
    first.remember("The team ships on Thursdays.", scope=SCOPE, categories=["work"])
    with (
        TestClient(create_app(first, flush_idle_minutes=None)) as one,
        TestClient(
            create_app(
                second,
                api_keys=["k-open", "k-alice"],
                api_key_scopes={"k-alice": ["/user/alice"]},
                flush_idle_minutes=None,
            )
        ) as other,
    ):
        started = one.post("/v1/consolidate", json={"jobs": ["nightly"]})
        assert started.status_code == 202, started.text
        run_id = started.json()["id"]
        open_key = {"Authorization": "Bearer k-open"}
        for _ in range(600):
            run = other.get(f"/v1/consolidate/runs/{run_id}", headers=open_key)
            assert run.status_code == 200, run.text
            if run.json()["state"] != "running":
                break
            time.sleep(0.1)
        done = run.json()
        assert done["state"] == "succeeded" and done["jobs"] == ["nightly"], done
        assert [r["job"] for r in done["report"]["runs"]] == ["nightly"]
        assert one.get(f"/v1/consolidate/runs/{run_id}").json() == done
        bound = other.get(f"/v1/consolidate/runs/{run_id}", headers={"Authorization": "Bearer k-alice"})
        assert bound.status_code == 403  # a key bound to a scope reads no whole-graph run
    # and the query itself is bound to scopes: a tenant's scopes do not hold the whole graph's runs
    now = datetime.now(UTC)
    assert second.consolidation_requests().get(run_id, now, ["/user/alice"]) is None
    assert second.consolidation_requests().get(run_id, now, ["/"]) is not None


def test_a_run_whose_process_died_reads_as_interrupted_once_its_lease_runs_out(sleeper: Memory) -> None:
    """A process that stops mid-run leaves its request 'running' with a lease nobody renews: a
    client following it is told it was interrupted and what to do, not 'running' forever."""
    started = datetime.now(UTC) - timedelta(minutes=10)
    store = sleeper.consolidation_requests()
    left = ConsolidationRun(
        id="left-by-a-dead-process", state="running", jobs=["nightly"], started_at=started
    )
    store.record(left, lease_until=started + timedelta(minutes=2))
    alive = ConsolidationRun(id="still-running", state="running", jobs=["nightly"], started_at=started)
    store.record(alive, lease_until=datetime.now(UTC) - timedelta(seconds=1))
    store.renew("still-running", datetime.now(UTC) + timedelta(minutes=2))  # its process renews it
    with TestClient(create_app(sleeper, flush_idle_minutes=None)) as client:
        dead = client.get("/v1/consolidate/runs/left-by-a-dead-process").json()
        assert dead["state"] == "interrupted" and "start a new run" in dead["error"]
        assert client.get("/v1/consolidate/runs/still-running").json()["state"] == "running"


def test_a_running_request_renews_its_lease(sleeper: Memory) -> None:
    gate = threading.Event()

    def slow_jobs(jobs: object, trigger: str) -> ConsolidationReport:
        gate.wait(5)
        return ConsolidationReport(runs=[])

    runs = BackgroundRuns(
        slow_jobs,
        lambda: datetime.now(UTC),
        sleeper.consolidation_requests(),
        lease=timedelta(seconds=0.8),
    )
    run = runs.start(["nightly"])
    time.sleep(1.6)  # two leases: only renewals keep it running
    assert runs.get(run.id).state == "running"
    gate.set()
    assert runs.join(5)
    assert runs.get(run.id).state == "succeeded"


def test_heartbeat_runs_overdue_jobs_at_startup(sleeper: Memory) -> None:
    with TestClient(
        create_app(sleeper, flush_idle_minutes=None, consolidation_heartbeat=timedelta(hours=1))
    ) as client:
        for _ in range(200):
            jobs = client.get("/v1/health/report").json()["jobs"]
            if all(j["last_run_at"] for j in jobs):
                break
            threading.Event().wait(0.1)
        assert all(j["last_status"] == "succeeded" for j in jobs)


def test_cli_consolidate_prints_each_job(sleeper: Memory, sleep_target: Neo4jTarget) -> None:
    sleeper.remember("The standup is at 9:15 every weekday.", scope=SCOPE)
    env = {
        "GRAPHMEM_NEO4J_URI": sleep_target.uri,
        "GRAPHMEM_NEO4J_USER": sleep_target.user,
        "GRAPHMEM_NEO4J_PASSWORD": sleep_target.password,
        "GRAPHMEM_LLM": "none",
    }
    result = CliRunner().invoke(main, ["consolidate", "--job", "nightly", "--job", "monthly"], env=env)
    assert result.exit_code == 0, result.output
    assert "nightly: succeeded" in result.output and "monthly: succeeded" in result.output
    report = CliRunner().invoke(main, ["health-report"], env=env)
    assert report.exit_code == 0 and '"nightly"' in report.output


def test_two_processes_taking_a_job_at_once_never_both_hold_it(sleeper: Memory, clock: MovableClock) -> None:
    # each round, two owners ask for a fresh job's lock at the same moment: exactly one gets it
    jobs = JobStore(sleeper._executor)
    now = clock.now()
    for round_ in range(8):
        job = f"race-{round_}"
        gate = threading.Barrier(2)
        got: dict[str, bool] = {}

        def take(owner: str, job: str, gate: threading.Barrier, got: dict[str, bool]) -> None:
            gate.wait()
            got[owner] = jobs.acquire(job, owner, now, now + timedelta(minutes=10)) is not None

        owners = ("host-a:1", "host-b:2")
        threads = [threading.Thread(target=take, args=(owner, job, gate, got)) for owner in owners]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(got.values()) == [False, True], (round_, got)
