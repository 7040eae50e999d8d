"""What consolidation reports: per run counts, and the health report of the whole graph."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

JobName = Literal["nightly", "weekly", "monthly"]
RunStatus = Literal["succeeded", "failed", "busy"]


class ConsolidateRequest(BaseModel):
    """Which jobs to run now (all three when omitted), overdue or not."""

    jobs: list[JobName] | None = Field(
        default=None, min_length=1, description="nightly, weekly and/or monthly"
    )


class JobRunRecord(BaseModel):
    """One run of one job: how it ended and what it changed."""

    job: JobName
    status: RunStatus = Field(description="busy: another process holds the job's lock; nothing ran")
    run_id: str | None = None
    trigger: str = "manual"
    started_at: datetime | None = None
    finished_at: datetime | None = None
    duration_ms: int = 0
    counts: dict[str, int] = Field(
        default_factory=dict,
        description="merged, promoted, extracted, archived, insights, cold, schemas, summaries, errors...",
    )
    step_ms: dict[str, int] = Field(
        default_factory=dict, description="how long each step of the run took, in milliseconds"
    )
    llm_calls: int = 0
    cost_usd: float = 0.0
    error: str | None = None


class ConsolidationReport(BaseModel):
    """The runs one request made, and their counts added up."""

    runs: list[JobRunRecord]

    @property
    def counts(self) -> dict[str, int]:
        """Every count summed over the runs."""
        total: dict[str, int] = {}
        for run in self.runs:
            for key, n in run.counts.items():
                total[key] = total.get(key, 0) + n
        return total


RequestState = Literal["running", "succeeded", "failed", "busy", "interrupted"]


class ConsolidationRun(BaseModel):
    """One consolidation request run in the background: its state, then its report."""

    id: str = Field(description="the run id to poll at GET /v1/consolidate/runs/{id}")
    state: RequestState = Field(
        description="running; then succeeded, failed (see error and the report's runs) or busy "
        "(every job asked for was running in another process) or interrupted (the process running "
        "it stopped before it finished: start a new run, which resumes where this one stopped)"
    )
    jobs: list[JobName]
    trigger: str = "api"
    started_at: datetime
    finished_at: datetime | None = None
    report: ConsolidationReport | None = Field(default=None, description="the runs, once finished")
    error: str | None = None


class JobState(BaseModel):
    """A scheduled job: when it last ran and when it is due."""

    name: JobName
    last_run_at: datetime | None
    last_status: str | None
    last_duration_ms: int | None = None
    next_due_at: datetime | None
    overdue: bool
    running: bool = Field(description="a process holds the job's lock right now")


class HealthDetail(BaseModel):
    """C8 health report: what is active, archived and cold, how stale, how fast it grows, last runs."""

    generated_at: datetime
    totals: dict[str, int] = Field(description="memories by status")
    by_layer: dict[str, dict[str, int]] = Field(description="layer -> status -> memories")
    by_category: dict[str, dict[str, int]] = Field(description="category -> status -> memories")
    staleness: dict[str, int] = Field(
        description="active memories by days since they happened or were last used"
    )
    growth: list[dict[str, int | str]] = Field(
        description="memories created per week, per layer, oldest first"
    )
    jobs: list[JobState]
    recent_runs: list[JobRunRecord]
