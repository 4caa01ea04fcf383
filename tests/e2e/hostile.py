"""Sending what a hostile or buggy client could: option payloads the emulator's own checks would refuse.

`emu.run_command` types and bounds options the way the Discord client does; a raw payload skips that, so
a test can deliver any value the gateway could carry (wrong types, out-of-range numbers, unknown choices).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from emulator.commands import SUBCOMMAND, SUBCOMMAND_GROUP
from emulator.interactions import APPLICATION_COMMAND, InteractionResult
from emulator.options import Invocation, Resolved, resolve_command
from emulator.world import User
from sandbox.harness import BotHarness
from store import schema
from store.connection import Connection
from tests.fixtures import postgres

DISCORD_CONTENT_LIMIT = 2000
STATE_TABLES = ("wallets", "ledger", "cards")
# The bot's own liveness, written on its clock whatever users do; and who used a command in which server,
# written after a command's answer (services/community/drops/activity.py): a test's command just before.
UNRELATED_TABLES = ("heartbeats", "guild_players")


def invocation_of(harness: BotHarness, path: str) -> Invocation:
    assert harness.guild is not None
    return resolve_command(harness.emu.commands.available(harness.guild.id), path)


def leaf_options(invocation: Invocation) -> list[dict[str, Any]]:
    return [o for o in invocation.leaf if o.get("type") not in (SUBCOMMAND, SUBCOMMAND_GROUP)]


async def send_raw(
    harness: BotHarness,
    user: User,
    path: str,
    values: dict[str, Any],
    *,
    resolved: dict[str, Any] | None = None,
    types: dict[str, int] | None = None,
) -> InteractionResult:
    """Run `path` with option values exactly as given (each option's type from the declaration unless
    `types` overrides it), as the gateway would deliver them."""
    emu = harness.emu
    invocation = invocation_of(harness, path)
    declared = {str(d["name"]): int(d["type"]) for d in leaf_options(invocation)}
    options: list[dict[str, Any]] = [
        {"name": name, "type": (types or {}).get(name, declared.get(name, 3)), "value": value}
        for name, value in values.items()
    ]
    for decl in reversed(invocation.chain):
        options = [{"name": decl["name"], "type": decl["type"], "options": options}]
    data = emu._command_data(invocation, options, Resolved())
    if resolved:
        data["resolved"] = resolved
    channel = emu._acting_channel(user, None)
    record = await emu._send(APPLICATION_COMMAND, user, channel, invocation.display, data, locale=None)
    return await emu._wait(record)


async def send_unknown_command(harness: BotHarness, user: User, name: str) -> InteractionResult:
    """A command the bot does not have (one it removed while a client still offers it)."""
    emu = harness.emu
    data = {"id": "1", "name": name, "type": 1}
    channel = emu._acting_channel(user, None)
    record = await emu._send(APPLICATION_COMMAND, user, channel, f"/{name}", data, locale=None)
    return await emu._wait(record)


def state_of(db_path: Path) -> dict[str, str]:
    """What a refusal must leave unchanged: every wallet, ledger row and card copy, and the number of rows
    of every table (a refused command leaves no trace: no idempotency key, no job, no message)."""
    with postgres.connect(db_path) as conn:
        return read_state(conn)


@contextmanager
def state_reader(db_path: Path) -> Iterator[Callable[[], dict[str, str]]]:
    """`state_of` on one connection kept open, for a test that reads the state before and after every
    example: opening a SQLite connection parses the whole schema again, most of a read's cost."""
    with postgres.connect(db_path) as conn:
        yield partial(read_state, conn)


def read_state(conn: Connection) -> dict[str, str]:
    """`state_of` on an open connection (in autocommit: each read sees the last commit). A table's rows are
    compared as the sorted `repr` of each, in any order: a multiset, exact to the type of every value."""
    state = {
        table: "\n".join(sorted(map(repr, conn.execute(f"SELECT * FROM {table}").fetchall())))
        for table in STATE_TABLES
    }
    for table in schema.tables(conn):
        if table not in UNRELATED_TABLES:
            state[f"{table} rows"] = str(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    return state


def assert_private_and_fits(result: InteractionResult) -> str:
    """The reply is private and within Discord's limits; returns its text."""
    message = result.message
    assert message is not None, result
    assert message.ephemeral, message.render()
    assert len(message.content) <= DISCORD_CONTENT_LIMIT
    return message.render()
