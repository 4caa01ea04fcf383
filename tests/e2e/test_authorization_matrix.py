"""Every command and button that takes a game, battle, duel, card copy, quote, offer or message id, tried by
someone who may not use it: a stranger, someone acting from another server (the custom_id or option
forged with that server's own id), the opponent, and after the game ended. Each try must get a private
refusal, answered by the bot's error handler (a private answer that shows the thing is no refusal), and
change nothing: the database (every table but the players' last-seen touch) and every public message are
compared before and after. The one answer that is not a refusal is declared by its row: the owner's
second click of the very action that ended the scene, answered with the first one's result.

A row is one command or button and one test: a scene builds what it acts on (tests/e2e/authorization.py),
once, and each role tries on it in turn. The
platform's rows are here; each game's are in its own `tests/e2e/<game>/authorization.py`, found without a
list: a new command is one more row in its game's module.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from discord_app import errors
from sandbox.harness import BotHarness
from services.infra import ledger
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import enqueue
from services.infra.players import ensure_player
from store import schema
from store.connection import Connection
from tests.e2e.authorization import (
    ADMIN_ELSEWHERE,
    AFTER_END,
    OTHER_SERVER,
    STRANGER,
    STRANGER_ELSEWHERE,
    Role,
    Row,
    Scene,
    World,
    click,
    game_rows,
)
from tests.e2e.messages import after_welcome, shown
from tests.fixtures import postgres

VOLATILE_TABLES = frozenset({"players", "heartbeats", "schema_migrations"})

pytestmark = [pytest.mark.usefixtures("no_pacing"), pytest.mark.sweep]


async def undelivered_dm(w: World) -> Scene:
    """A private message for alice that could have been turned into a "show" button."""
    alice = w.user("alice")
    assert w.h.bot is not None
    services = w.h.bot.services
    now = services.clock.now()
    spec = MessageSpec(content=Text.raw("secret hand"))

    def unit(conn: Connection) -> int:
        return enqueue(conn, now, Target("dm", alice.id, w.here.id, guild_id=None), spec)

    item = await services.db.write(unit)
    await w.h.settle()
    return Scene({"item": item}, "alice")


async def owned_entries(w: World) -> Scene:
    """alice owns a Chocobataille card (interchangeable copies) and an Immortal's War copy."""
    alice = w.user("alice")
    assert w.h.bot is not None
    services = w.h.bot.services
    now = services.clock.now()

    def unit(conn: Connection) -> int:
        ensure_player(conn, alice.id, now, services.registry)
        ledger.mint_card(conn, now, alice.id, "choco", ENTRY_CARD, ledger.Movement("test.grant"))
        return ledger.mint_card(conn, now, alice.id, "immortals", "imp", ledger.Movement("test.grant"))

    copy = await services.db.write(unit)
    return Scene({"alice": alice.id, "copy": copy}, "alice")


async def open_drop(w: World) -> Scene:
    """A drop open in the scene's channel (Immortal's War gold: no picture to draw); alice may take it.
    It ends when its window does, drawn among whoever took it."""
    assert w.h.bot is not None
    assert w.here.guild is not None
    services, guild, channel = w.h.bot.services, w.here.guild.id, w.here.id
    now = services.clock.now()
    drop = await services.db.write(
        lambda conn: services.drops.open_drop(conn, now, guild, channel, "immortals")
    )
    await w.h.settle()

    async def end(w: World) -> None:
        await w.h.advance(timedelta(seconds=10))

    return Scene({"drop": drop}, "alice", end=end)


async def drawn_drop(w: World) -> Scene:
    """`open_drop`, taken by alice and drawn: its proof may be checked in this server."""
    scene = await open_drop(w)
    assert w.h.bot is not None
    assert w.here.guild is not None
    await w.h.bot.services.drops.enter(scene.ids["drop"], w.here.guild.id, w.user("alice").id)
    assert scene.end is not None
    await scene.end(w)
    return Scene(scene.ids, "alice")


ENTRY_CARD = "aglae_pommeverte"
ENTRY_ROLES = (STRANGER, STRANGER_ELSEWHERE)
ROWS = (
    # the platform
    Row("outbox Voir", undelivered_dm, click("outbox:show:{item}"), (STRANGER, STRANGER_ELSEWHERE)),
    # « Voir une carte » under a collection page: the owner's select, or one forged in the actor's name
    Row("Voir une carte (owner's)", owned_entries, click("entry:choco:{alice}", [ENTRY_CARD]), ENTRY_ROLES),
    Row("Voir une carte (forged)", owned_entries, click("entry:choco:{me}", [ENTRY_CARD]), ENTRY_ROLES),
    Row("Voir une carte (a copy)", owned_entries, click("entry:immortals:{me}", ["{copy}"]), ENTRY_ROLES),
    # drops: anyone of the server may take one while it is open and check it once drawn, nobody elsewhere
    Row("drop Prendre", open_drop, click("drops:take:{drop}"), (OTHER_SERVER, STRANGER_ELSEWHERE, AFTER_END)),
    Row("drop Vérifier", drawn_drop, click("drops:verify:{drop}"), (OTHER_SERVER, ADMIN_ELSEWHERE)),
    Row("drop Vérifier before the draw", open_drop, click("drops:verify:{drop}"), (STRANGER, OTHER_SERVER)),
    *game_rows(),
)


# --- the check ----------------------------------------------------------------------------------------


def database_state(h: BotHarness) -> dict[str, str]:
    with postgres.connect(h.db_path) as conn:
        tables = [
            str(name)
            for name in schema.tables(conn)
            if name not in VOLATILE_TABLES and not str(name).startswith("sqlite_")
        ]
        rows = {table: conn.execute(f"SELECT * FROM {table}").fetchall() for table in tables}
    # The actor's first command of a game claims its welcome (`welcome:<game>:<player>`), shown even after a
    # refusal: the actor's own first-use state, like the players row, not the game's.
    rows["idempotency"] = [r for r in rows.get("idempotency", []) if not str(r[0]).startswith("welcome:")]
    return {table: json.dumps(sorted(found, key=repr)) for table, found in rows.items()}


def public_messages(h: BotHarness) -> list[tuple[int, str, tuple[str, ...]]]:
    return [
        (m.id, shown(m), tuple(a.filename for a in m.attachments))
        for m in h.emu.messages
        if m.ephemeral_to is None and not m.deleted
    ]


CASES = [pytest.param(row, id=row.name) for row in ROWS]


@pytest.fixture
def refusals(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the bot's error handler answered (discord_app/errors.py `reply_private`, where every command's
    and component's refusal goes): a try must be refused there, not merely answered privately."""
    said: list[str] = []
    reply_private = errors.reply_private

    async def recording(interaction: Any, message: str) -> None:
        said.append(message)
        await reply_private(interaction, message)

    monkeypatch.setattr(errors, "reply_private", recording)
    return said


@pytest.mark.parametrize("row", CASES)
async def test_a_foreign_or_late_use_is_refused_privately_and_changes_nothing(
    harness: BotHarness, refusals: list[str], row: Row
) -> None:
    """Each role of the row tries in turn on one scene, those after the end last: a refusal changes
    nothing (each try checks it), so the next role meets the scene as the first did, and the row builds
    its scene once instead of once per role."""
    assert harness.bot is not None
    assert harness.games_channel is not None
    for name in ("alice", "bob", "carol"):
        harness.user(name)
    elsewhere = harness.emu.add_guild("Autre serveur", locale="fr")
    world = World(harness, harness.games_channel, harness.emu.add_channel(elsewhere, "jeux"))
    await harness.bot.tree.sync()  # the commands everywhere, as `/admin sync` publishes them
    scene = await row.scene(world)
    ended = False
    for role in sorted(row.roles, key=lambda role: role.ended):
        if role.ended and not ended:
            assert scene.end is not None, row.name
            await scene.end(world)
            ended = True
        await _refused(world, row, role, scene, refusals)


async def _refused(world: World, row: Row, role: Role, scene: Scene, refusals: list[str]) -> None:
    harness = world.h
    case = f"{row.name} — {role.name}"
    who = {"owner": scene.owner, "opponent": scene.opponent}.get(role.who, role.who)
    assert who is not None, case
    actor = world.user(who)
    await harness.emu.run_command(actor, "profile", channel=world.channel(role.where))  # known to the bot
    await harness.settle()
    before, posts = database_state(harness), public_messages(harness)
    refused_before = len(refusals)

    result = await row.act(world, actor, world.channel(role.where), scene.ids)
    await harness.settle()

    message = result.message
    assert message is not None, f"{case}: no answer"
    assert message.ephemeral, f"{case}: answered in public: {shown(message)}"
    if not (role.ended and row.replayed_after_end and who == scene.owner):
        assert (
            after_welcome(message.content) in refusals[refused_before:]
        ), (  # a first command: its welcome on top
            f"{case}: answered, not refused: {shown(message)}"
        )
    assert message.attachments == [], f"{case}: sent a file"
    assert database_state(harness) == before, f"{case}: changed the database ({shown(message)})"
    assert public_messages(harness) == posts, f"{case}: changed a public message"
