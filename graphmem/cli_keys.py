"""``graphmem keys create|list|revoke``: API keys kept hashed in Neo4j, optionally bound to scopes."""

from __future__ import annotations

import json

import click

from graphmem.config import Settings
from graphmem.connect import open_memory
from graphmem.targets import resolve_target
from graphmem.tenancy import binding, describe


@click.group()
def keys() -> None:
    """Manage the API keys the REST API (`graphmem serve`) and `graphmem mcp --api-key` accept."""


@keys.command("create")
@click.option("--name", required=True, help="Whose key it is (shown by `graphmem keys list`).")
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    help="Bind the key to this scope and below (repeat for several); none: an unbound admin key.",
)
@click.option(
    "--read-scope",
    "read_scopes",
    multiple=True,
    help=(
        "A scope the key only reads (repeat for several). An agent's key: --scope "
        "/org/acme/agent/planner --read-scope /org/acme writes in its own space, reads all of acme."
    ),
)
@click.pass_obj
def create_key(settings: Settings, name: str, scopes: tuple[str, ...], read_scopes: tuple[str, ...]) -> None:
    """Create a key and print its secret: it is shown only now (only its hash is stored)."""
    with open_memory(settings, resolve_target(settings)) as memory:
        memory.prepare()
        secret, record = memory.api_keys().create(name, list(scopes) or None, list(read_scopes) or None)
    bound = ", ".join(record.scopes) if record.scopes else "every scope (unbound)"
    if record.read_scopes:
        bound = f"{', '.join(record.scopes or []) or 'no scope'}, reading {', '.join(record.read_scopes)}"
    click.echo(f"key {record.id} ({record.name}) for {bound}", err=True)
    click.echo("Send it as 'Authorization: Bearer <secret>'; it is not shown again:", err=True)
    click.echo(secret)


@keys.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_obj
def list_keys(settings: Settings, as_json: bool) -> None:
    """List the stored keys (id, name, scopes, created, revoked); secrets are never shown.

    Scopes read as in GRAPHMEM_API_KEYS: ``/a|read:/b`` writes in /a and reads /b too."""
    with open_memory(settings, resolve_target(settings)) as memory:
        memory.prepare()
        records = memory.api_keys().all()
    if as_json:
        click.echo(json.dumps([r.model_dump(mode="json") for r in records], indent=2))
        return
    for r in records:
        state = f"revoked {r.revoked_at:%Y-%m-%d}" if r.revoked and r.revoked_at else "live"
        scopes = describe(binding(r.scopes, r.read_scopes) if r.scopes or r.read_scopes else None)
        click.echo(f"{r.id}  {r.name:<20}  {scopes:<40}  created {r.created_at:%Y-%m-%d}  {state}")


@keys.command("revoke")
@click.argument("key_id")
@click.pass_obj
def revoke_key(settings: Settings, key_id: str) -> None:
    """Revoke the key KEY_ID: a running server refuses it within seconds."""
    with open_memory(settings, resolve_target(settings)) as memory:
        memory.prepare()
        record = memory.api_keys().revoke(key_id)
    click.echo(f"key {record.id} ({record.name}) revoked")
