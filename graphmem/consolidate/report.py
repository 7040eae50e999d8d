"""GET /v1/health/report: counts per layer, status and category, staleness, growth, and the jobs' runs."""

from __future__ import annotations

from datetime import timedelta

from graphmem.consolidate.jobs import JOBS, Consolidator
from graphmem.consolidate.models import HealthDetail, JobRunRecord, JobState
from graphmem.store.consolidation import ConsolidationStore

GROWTH_WEEKS = 8
STALENESS_BUCKETS = ("0-7d", "7-30d", "30-90d", "90-180d", "180d+")


def health_detail(store: ConsolidationStore, consolidator: Consolidator, recent: int = 10) -> HealthDetail:
    """The health report as of now."""
    now = consolidator.clock_now()
    since = now - timedelta(weeks=GROWTH_WEEKS)
    layers, counts, staleness, growth = store.health_rows(now, since)
    totals: dict[str, int] = {}
    by_layer: dict[str, dict[str, int]] = {}
    by_category: dict[str, dict[str, int]] = {}
    for row in counts:
        status, category, n = row["status"], row["category"], int(row["n"])
        by_category.setdefault(category, {}).setdefault(status, 0)
        by_category[category][status] += n
    for row in layers:
        layer, status, n = row["layer"], row["status"], int(row["n"])
        by_layer.setdefault(layer, {})[status] = n
        totals[status] = totals.get(status, 0) + n
    buckets = {b: 0 for b in STALENESS_BUCKETS}
    for row in staleness:
        buckets[row["bucket"]] = int(row["n"])
    weeks: dict[int, dict[str, int | str]] = {}
    for row in growth:
        week = int(row["week"])
        entry = weeks.setdefault(week, {"week_start": (since + timedelta(weeks=week)).date().isoformat()})
        entry[row["layer"]] = int(row["n"])
    states = consolidator.jobs_store.jobs()
    due = set(consolidator.overdue(now, states))
    jobs = []
    for name in JOBS:
        state = states.get(name)
        last = state.last_run_at if state else None
        jobs.append(
            JobState(
                name=name,
                last_run_at=last,
                last_status=state.last_status if state else None,
                last_duration_ms=state.last_duration_ms if state else None,
                next_due_at=None if last is None else last + consolidator.settings.intervals[name],
                overdue=name in due,
                running=bool(state and state.locked_by and state.locked_until and state.locked_until > now),
            )
        )
    runs = [
        JobRunRecord(
            job=r["job"],
            status="succeeded" if r["status"] == "succeeded" else "failed",
            run_id=r["id"],
            trigger=r.get("trigger") or "manual",
            started_at=r["started_at"],
            finished_at=r.get("finished_at"),
            duration_ms=int(r.get("duration_ms") or 0),
            counts={k: int(v) for k, v in r["counts"].items()},
            step_ms={k: int(v) for k, v in r["step_ms"].items()},
            error=r.get("error") if r["status"] != "running" else "running",
        )
        for r in consolidator.jobs_store.recent_runs(recent)
    ]
    return HealthDetail(
        generated_at=now,
        totals=totals,
        by_layer=by_layer,
        by_category=by_category,
        staleness=buckets,
        growth=[weeks[w] for w in sorted(weeks)],
        jobs=jobs,
        recent_runs=runs,
    )
