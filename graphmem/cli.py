"""The ``graphmem`` command line: serve, neo4j start|stop|status, remember, recall, import, stats,
scopes, export."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from graphmem.cli_keys import keys
from graphmem.config import Settings
from graphmem.connect import MemoryConnection, open_memory
from graphmem.errors import AuthenticationError, GraphmemError, ScopeForbiddenError
from graphmem.keys import KeyRing
from graphmem.memory import Memory
from graphmem.models import MemoryInput
from graphmem.runtime.server import ManagedNeo4j
from graphmem.scopes import normalize_scope
from graphmem.targets import resolve_target
from graphmem.tenancy import Grant, narrowed


def _connect(settings: Settings) -> MemoryConnection:
    return open_memory(settings, resolve_target(settings))


def _password_file(settings: Settings) -> str:
    return str(ManagedNeo4j.from_settings(settings).layout.password_file)


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))


class _Group(click.Group):
    """Turns graphmem errors into a one-line message and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GraphmemError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(1)


@click.group(cls=_Group)
@click.option("-v", "--verbose", is_flag=True, help="Log more.")
@click.pass_context
def main(ctx: click.Context, verbose: bool) -> None:
    """graphmem: long-term memory for LLM agents, kept as a graph in Neo4j."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    ctx.obj = Settings()


@main.command()
@click.option("--host", default=None, help="Address to listen on (default 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port to listen on (default 8000).")
@click.pass_obj
def serve(settings: Settings, host: str | None, port: int | None) -> None:
    """Start the managed Neo4j (unless GRAPHMEM_NEO4J_URI is set), then the REST API."""
    import uvicorn

    from graphmem.api.app import create_app
    from graphmem.api.ratelimit import RateLimits, parse_limit

    if settings.managed:
        info = ManagedNeo4j.from_settings(settings).start()
        click.echo(
            f"Neo4j running: {info.uri}  Browser: {info.browser_url} "
            f"(user neo4j, password in {_password_file(settings)})"
        )
    connection = _connect(settings)
    app = create_app(
        connection.memory,
        api_keys=settings.api_key_list,
        api_key_scopes=settings.api_key_scopes,
        stored_keys=True,
        rate_limits=RateLimits(
            parse_limit(settings.rate_limit_reads, "GRAPHMEM_RATE_LIMIT_READS"),
            parse_limit(settings.rate_limit_writes, "GRAPHMEM_RATE_LIMIT_WRITES"),
        ),
        on_shutdown=connection.close,
        nudge_every_user_turns=settings.nudge_every_user_turns,
        flush_idle_minutes=settings.flush_idle_minutes,
        consolidation_heartbeat=(
            timedelta(minutes=settings.consolidation_heartbeat_minutes)
            if settings.consolidation_heartbeat_minutes > 0
            else None
        ),
    )
    bind_host, bind_port = host or settings.host, port or settings.port
    click.echo(
        f"graphmem API on http://{bind_host}:{bind_port}  (OpenAPI docs: http://{bind_host}:{bind_port}/docs)"
    )
    from graphmem.browser.links import default_api_url, forget_api_url, record_api_url

    url = default_api_url(bind_host, bind_port)
    record_api_url(settings.home, url)  # `graphmem browser` in another shell follows this port
    try:
        uvicorn.run(app, host=bind_host, port=bind_port, log_level="warning")
    finally:
        forget_api_url(settings.home, url)


@main.group()
def neo4j() -> None:
    """Manage the local Neo4j graphmem runs itself."""


@neo4j.command("install")
@click.pass_obj
def neo4j_install(settings: Settings) -> None:
    """Fetch the Neo4j jars with Maven and write the configuration (no start)."""
    ManagedNeo4j.from_settings(settings).install()
    click.echo(f"Neo4j {settings.neo4j_version} installed under {settings.home / 'neo4j'}")


@neo4j.command("start")
@click.pass_obj
def neo4j_start(settings: Settings) -> None:
    """Fetch the jars if needed and start Neo4j (finds a running one instead of starting another)."""
    info = ManagedNeo4j.from_settings(settings).start()
    click.echo(
        f"Neo4j running: {info.uri}\nBrowser: {info.browser_url}\nuser: {info.user}\n"
        f"password file: {_password_file(settings)}"
    )


@neo4j.command("stop")
@click.pass_obj
def neo4j_stop(settings: Settings) -> None:
    """Stop the managed Neo4j cleanly."""
    stopped = ManagedNeo4j.from_settings(settings).stop()
    click.echo("Neo4j stopped." if stopped else "Neo4j was not running.")


@neo4j.command("status")
@click.pass_obj
def neo4j_status(settings: Settings) -> None:
    """Say whether the managed Neo4j runs, with its pid and ports."""
    _print_json(ManagedNeo4j.from_settings(settings).status().model_dump(mode="json"))


@main.command()
@click.argument("text")
@click.option("--scope", default=None, help="Scope path, e.g. /user/alice.")
@click.option("--category", "categories", multiple=True, help="A category (repeatable).")
@click.option("--importance", type=float, default=None, help="0..1")
@click.pass_obj
def remember(
    settings: Settings, text: str, scope: str | None, categories: tuple[str, ...], importance: float | None
) -> None:
    """Remember TEXT."""
    with _connect(settings) as memory:
        result = memory.remember(
            text, scope=scope, categories=list(categories) or None, importance=importance
        )
    _print_json(result.model_dump(mode="json"))


@main.command()
@click.argument("query")
@click.option("--scope", default=None, help="Only this scope and below.")
@click.option("--limit", default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the full JSON answer.")
@click.pass_obj
def recall(settings: Settings, query: str, scope: str | None, limit: int, as_json: bool) -> None:
    """Recall the memories that answer QUERY."""
    with _connect(settings) as memory:
        answer = memory.recall(query, scope=scope, limit=limit)
    if as_json:
        _print_json(answer.model_dump(mode="json"))
        return
    click.echo(f"confidence {answer.confidence:.2f}")
    for hit in answer.results:
        click.echo(f"{hit.score:.4f}  {hit.scope}  {hit.text}")
    for gap in answer.evidence_gaps:
        click.echo(f"gap: {gap}")


def _read_jsonl(path: Path) -> Iterator[tuple[int, MemoryInput]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, MemoryInput.model_validate_json(line)
            except ValidationError as e:
                raise click.ClickException(
                    f"{path}:{number}: not a memory ({e.errors()[0]['msg']}); nothing after it was imported."
                ) from e


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--batch-size", default=500, show_default=True)
@click.pass_obj
def import_file(settings: Settings, file: Path, batch_size: int) -> None:
    """Import memories from FILE: JSON Lines of {text, scope?, categories?, importance?, occurred_at?}."""
    total = sum(1 for line in file.open(encoding="utf-8") if line.strip())
    counts: dict[str, int] = {}
    with _connect(settings) as memory, click.progressbar(length=total, label="importing") as bar:
        batch: list[MemoryInput] = []
        for _, item in _read_jsonl(file):
            batch.append(item)
            if len(batch) >= batch_size:
                _import_batch(memory.remember_batch(batch), counts)
                bar.update(len(batch))
                batch = []
        if batch:
            _import_batch(memory.remember_batch(batch), counts)
            bar.update(len(batch))
    click.echo(json.dumps(counts))


def _import_batch(results: list[Any], counts: dict[str, int]) -> None:
    for result in results:
        for action in result.actions:
            key = action.split(":", 1)[0]
            counts[key] = counts.get(key, 0) + 1


@main.command()
@click.pass_obj
def stats(settings: Settings) -> None:
    """Counts of memories by layer and status, entities and decisions."""
    with _connect(settings) as memory:
        _print_json(memory.health().model_dump(mode="json"))


@main.command()
@click.option("--scope", default=None, help="The scope the views start on, e.g. /user/alice (default /).")
@click.option(
    "--api-url",
    default=None,
    envvar="GRAPHMEM_API_URL",
    help="Where the graphmem API answers (default: where `graphmem serve` runs, else GRAPHMEM_HOST/PORT).",
)
@click.option("--browser-url", default=None, help="Neo4j Browser's URL (needed with GRAPHMEM_NEO4J_URI).")
@click.pass_obj
def browser(settings: Settings, scope: str | None, api_url: str | None, browser_url: str | None) -> None:
    """Print how to explore the memory graph in Neo4j Browser: the link, the login, the commands."""
    from graphmem.browser.links import (
        api_answers,
        browser_links,
        default_api_url,
        describe_links,
        recorded_api_url,
    )
    from graphmem.runtime.ports import LOOPBACK

    api = api_url or recorded_api_url(settings.home) or default_api_url(settings.host, settings.port)
    if settings.managed:
        status = ManagedNeo4j.from_settings(settings).status()
        bolt_uri = f"bolt://{LOOPBACK}:{status.bolt_port}"
        browser_url = browser_url or f"http://{LOOPBACK}:{status.http_port}/browser/"
        password = f"in {_password_file(settings)}"
        if not status.running:
            click.echo("Neo4j is not running: start it with `graphmem serve`.", err=True)
    else:
        bolt_uri, password = settings.neo4j_uri or "", "from GRAPHMEM_NEO4J_PASSWORD"
    links = browser_links(browser_url, bolt_uri, settings.neo4j_user, settings.neo4j_database, api, scope)
    click.echo(describe_links(links, settings.neo4j_user, password))
    if not api_answers(api):
        click.echo(
            f"Nothing answers at {api} yet: start the API with `graphmem serve`, or give its address "
            "with --api-url (or GRAPHMEM_API_URL).",
            err=True,
        )


@main.command()
@click.option(
    "--job",
    "jobs",
    multiple=True,
    type=click.Choice(["nightly", "weekly", "monthly"]),
    help="Run only this job (repeatable); default all three.",
)
@click.option(
    "--overdue", is_flag=True, help="Run only the jobs whose last run is older than their interval."
)
@click.pass_obj
def consolidate(settings: Settings, jobs: tuple[str, ...], overdue: bool) -> None:
    """Run the consolidation ("sleep") jobs now, with progress, then print their counts (for cron too)."""
    bar = _ProgressBar()
    with _connect(settings) as memory:
        if overdue:
            report = memory.run_overdue_jobs(trigger="cli")
        else:
            report = memory.consolidate(list(jobs) or None, progress=bar, trigger="cli")  # type: ignore[arg-type]
    bar.close()
    for run in report.runs:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(run.counts.items()) if v)
        click.echo(f"{run.job}: {run.status} in {run.duration_ms / 1000:.1f} s  {counts or 'nothing to do'}")
        if run.error:
            click.echo(f"  {run.error}", err=True)
    if any(r.status == "failed" for r in report.runs):
        sys.exit(1)


class _ProgressBar:
    """A progress line per consolidation step on stderr (click's bar when the total is known)."""

    def __init__(self) -> None:
        self._step: str | None = None
        self._shown = 0.0

    def __call__(self, step: str, done: int, total: int | None) -> None:
        import time

        now = time.monotonic()
        if step == self._step and now - self._shown < 0.5 and (total is None or done < total):
            return
        self._step, self._shown = step, now
        if total:
            width = 30
            filled = int(width * done / total)
            line = f"{step:<24} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        else:
            line = f"{step:<24} {done} read"
        click.echo(f"\r{line:<80}", nl=False, err=True)

    def close(self) -> None:
        if self._step is not None:
            click.echo("", err=True)


@main.command("health-report")
@click.pass_obj
def health_report(settings: Settings) -> None:
    """The health report: counts per layer, status and category, staleness, growth, job runs."""
    with _connect(settings) as memory:
        _print_json(memory.health_report().model_dump(mode="json"))


@main.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio for a client that starts graphmem itself; http for streamable HTTP on /mcp.",
)
@click.option("--host", default=None, help="Address for --transport http (default 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port for --transport http (default 8000).")
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    help="Confine every tool to this scope and below (repeat for several): a tenant's MCP server.",
)
@click.option(
    "--api-key",
    envvar="GRAPHMEM_MCP_API_KEY",
    default=None,
    help="Confine the tools to the scopes this API key is bound to (GRAPHMEM_API_KEYS or `graphmem keys`).",
)
@click.pass_obj
def mcp_server(
    settings: Settings,
    transport: str,
    host: str | None,
    port: int | None,
    scopes: tuple[str, ...],
    api_key: str | None,
) -> None:
    """Serve graphmem's memory tools over the Model Context Protocol (MCP)."""
    import contextlib

    from graphmem.mcp.server import build_server

    # On stdio, stdout carries the protocol: anything printed while connecting goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        connection = _connect(settings)
        connection.memory.prepare()
        allowed = list(scopes) or None
        if api_key is not None:
            allowed = _key_scopes(settings, connection.memory, api_key, allowed)
        server = build_server(connection.memory, allowed=allowed)
    try:
        if transport == "stdio":
            server.run("stdio")
        else:
            bind_host, bind_port = host or settings.host, port or settings.port
            click.echo(f"graphmem MCP on http://{bind_host}:{bind_port}/mcp", err=True)
            server.run("streamable-http", host=bind_host, port=bind_port)
    finally:
        connection.close()


def _key_scopes(
    settings: Settings, memory: Memory, secret: str, scopes: list[str] | None
) -> list[str] | None:
    """The scopes an MCP server with ``--api-key`` may touch (narrowed further by ``--scope``)."""
    configured = {k: settings.api_key_scopes.get(k) for k in settings.api_key_list}
    found, bound = KeyRing(configured, memory.api_keys().live).lookup(secret)
    if not found:
        raise AuthenticationError("--api-key is no live key of GRAPHMEM_API_KEYS or `graphmem keys list`.")
    if bound is None or scopes is None:
        return scopes if bound is None else bound if isinstance(bound, Grant) else list(bound)
    kept = narrowed(bound, [normalize_scope(s) for s in scopes])
    if not kept:
        raise ScopeForbiddenError(f"--scope lies outside the key's scopes {', '.join(bound)}.")
    return kept


main.add_command(keys)


def _add_explore_commands() -> None:
    from graphmem.cli_explore import export, scopes

    main.add_command(scopes)
    main.add_command(export)


_add_explore_commands()

if __name__ == "__main__":
    main()
