"""Every command and button that takes a game, battle, duel, card copy, quote, offer or message id, tried by
someone who may not use it: a stranger, someone acting from another server (the custom_id or option
forged with that server's own id), the opponent, and after the game ended. Each try must get a private
refusal and change nothing: the database (every table but the players' last-seen touch) and every public
message are compared before and after.

A row is one command or button; a scene builds what it acts on. A new command is one more row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from core.clock import to_db
from emulator.interactions import InteractionResult
from emulator.records import RecordedMessage
from emulator.world import Channel, User
from sandbox.harness import BotHarness
from services.hoss.gold import GOLD
from services.platform import ledger
from services.platform.messages import MessageSpec, Target, Text
from services.platform.outbox import enqueue
from services.platform.players import ensure_player
from tests.e2e.choco.helpers import challenge_accepted, with_bronze_deck
from tests.e2e.hoss.test_ranked import here, hoss, shown, start_rank_1, with_deck

VOLATILE_TABLES = frozenset({"players", "heartbeat", "schema_migrations"})

pytestmark = pytest.mark.usefixtures("no_pacing")


@dataclass
class Scene:
    """What a row acts on: ids, the player entitled to act (`owner`), the other seat (`opponent`), and how
    the game ends (for the "after the end" try)."""

    ids: dict[str, int]
    owner: str
    opponent: str | None = None
    end: Callable[[World], Awaitable[None]] | None = None


@dataclass
class World:
    h: BotHarness
    here: Channel
    there: Channel

    def user(self, name: str) -> User:
        return self.h.user(name)

    def channel(self, where: str) -> Channel:
        return self.here if where == "here" else self.there


@dataclass(frozen=True)
class Role:
    name: str
    who: str  # "owner", "opponent" or a user name
    where: str  # "here" (the scene's server) or "there" (another server)
    ended: bool = False


STRANGER = Role("stranger", "carol", "here")
OTHER_SERVER = Role("from another server", "owner", "there")
STRANGER_ELSEWHERE = Role("stranger from another server", "carol", "there")
ADMIN_ELSEWHERE = Role("admin of another server", "olivia", "there")
OPPONENT = Role("opponent", "opponent", "here")
AFTER_END = Role("after the end", "owner", "here", ended=True)
STRANGER_AFTER_END_ELSEWHERE = Role("stranger from another server, game over", "carol", "there", ended=True)

Act = Callable[[World, User, Channel, dict[str, int]], Awaitable[InteractionResult]]


def click(template: str, values: list[str] | None = None) -> Act:
    """A forged component click: `template` is formatted with the scene's ids and `me` (the actor)."""

    async def act(w: World, user: User, channel: Channel, ids: dict[str, int]) -> InteractionResult:
        custom_id = template.format(me=user.id, **ids)
        chosen = None if values is None else [v.format(**ids) for v in values]
        return await w.h.emu.forge_component(user, custom_id, channel=channel, values=chosen)

    return act


def command(path: str, **options: str) -> Act:
    """A slash command whose options name scene ids ("{battle}") or plain values."""

    async def act(w: World, user: User, channel: Channel, ids: dict[str, int]) -> InteractionResult:
        values: dict[str, Any] = {}
        for name, value in options.items():
            text = value.format(**ids)
            values[name] = int(text) if text.isdigit() else text
        return await w.h.emu.run_command(user, path, values, channel=channel)

    return act


def id_in(message: RecordedMessage, prefix: str) -> int:
    """The id a button of `message` carries after `prefix`."""
    ids = [str(c.get("custom_id", "")) for c in message.all_components()]
    return int(next(i for i in ids if i.startswith(prefix)).removeprefix(prefix))


# --- scenes -------------------------------------------------------------------------------------------


async def hoss_battle(w: World) -> Scene:
    alice = w.user("alice")
    await with_deck(w.h, alice)
    public = await start_rank_1(w.h, alice)
    ranked = hoss(w.h).ranked
    battle = await ranked.current(alice.id)
    assert battle is not None
    view = await ranked.view(alice.id, battle, here(w.h))

    async def end(w: World) -> None:
        await ranked.skip_to_end(alice.id, battle, here(w.h))

    return Scene({"battle": battle, "pause": view.pause, "message": public.id}, "alice", end=end)


async def hoss_collection(w: World) -> Scene:
    """A booster bought and flipped, and a milestone notice waiting for its OK."""
    alice = w.user("alice")
    assert w.h.bot is not None
    services = w.h.bot.services
    now = services.clock.now()

    def grant(conn: sqlite3.Connection) -> int:
        ensure_player(conn, alice.id, now)
        ledger.credit(conn, now, alice.id, GOLD, 100_000, ledger.Movement("test.grant"))
        return int(
            conn.execute(
                "INSERT INTO hoss_notices (player_id, kind, rank, wins, gold, created_at)"
                " VALUES (?, 'milestone', 1, 100, 100, ?) RETURNING id",
                (alice.id, to_db(now)),
            ).fetchone()[0]
        )

    notice = await services.db.write(grant)
    await w.h.emu.run_command(alice, "hoss booster", channel=w.here)
    opening = (await hoss(w.h).shop.unopened(alice.id))[0]
    copy = (await hoss(w.h).shop.flip(alice.id, opening.id)).opening.cards[0].copy_id
    assert copy is not None
    await w.h.emu.run_command(alice, "hoss vendre doublons", channel=w.here)
    await w.h.settle()
    return Scene({"opening": opening.id, "copy": copy, "notice": notice, "alice": alice.id}, "alice")


async def pillz_challenge(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    made = await w.h.emu.run_command(alice, "pillz defi", {"joueur": bob}, channel=w.here)
    assert made.message is not None
    assert not made.message.ephemeral
    duel = id_in(made.message, "pillz:accept:")

    async def end(w: World) -> None:
        await w.h.emu.click(alice, "Refuser", message=made.message)
        await w.h.settle()

    return Scene({"duel": duel}, "bob", "alice", end=end)


async def pillz_duel(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    made = await w.h.emu.run_command(alice, "pillz defi", {"joueur": bob}, channel=w.here)
    assert made.message is not None
    await w.h.emu.click(bob, "Accepter", message=made.message)
    await w.h.settle()
    duels = pillz(w).duels
    (duel,) = await duels.live(alice.id)
    names = {alice.id: "alice", bob.id: "bob"}
    to_act = duel.seats[duel.to_act()[0]]
    other = duel.seats[1 - duel.to_act()[0]]
    assert to_act is not None
    assert other is not None
    guild = here(w.h)

    async def end(w: World) -> None:
        current = await duels.get(duel.id)
        while current.status == "live":
            assert current.state is not None
            seat = current.to_act()[0]
            player = current.seats[seat]
            assert player is not None
            card = next(f.card_id for f in current.state.hands[seat] if not f.used)
            current = await duels.play(current.id, player, current.version, card, 0, guild=guild)
        await w.h.settle()

    return Scene({"duel": duel.id, "version": duel.version}, names[to_act], names[other], end=end)


def pillz(w: World) -> Any:
    assert w.h.bot is not None
    return w.h.bot.services.games["pillz"]


async def undelivered_dm(w: World) -> Scene:
    """A private message for alice that could have been turned into a "show" button."""
    alice = w.user("alice")
    assert w.h.bot is not None
    services = w.h.bot.services
    now = services.clock.now()
    spec = MessageSpec(content=Text.raw("secret hand"))

    def unit(conn: sqlite3.Connection) -> int:
        return enqueue(conn, now, Target("dm", alice.id, w.here.id), spec)

    item = await services.db.write(unit)
    await w.h.settle()
    return Scene({"item": item}, "alice")


async def choco_challenge(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    await with_bronze_deck(w.h, alice)
    await with_bronze_deck(w.h, bob)
    made = await w.h.emu.run_command(
        alice, "choco defi", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=w.here
    )
    assert made.message is not None
    assert not made.message.ephemeral
    offer = id_in(made.message, "choco:accept:")

    async def end(w: World) -> None:
        await w.h.emu.click(bob, "Accepter", message=made.message)
        await w.h.settle()

    return Scene({"offer": offer}, "bob", "alice", end=end)


async def choco_game(w: World) -> Scene:
    alice, bob = w.user("alice"), w.user("bob")
    await with_bronze_deck(w.h, alice)
    await with_bronze_deck(w.h, bob)
    game = await challenge_accepted(w.h, alice, bob, channel=w.here)
    return Scene({"game": game.id}, "alice", "bob")


Setup = Callable[[World], Awaitable[Scene]]


@dataclass(frozen=True)
class Row:
    name: str
    scene: Setup
    act: Act
    roles: tuple[Role, ...]


TWO_SEATS = (STRANGER, OTHER_SERVER, OPPONENT, AFTER_END)
ROWS = (
    # HOSS ranked battles (one player against the AI)
    Row("hoss Décider", hoss_battle, click("hoss:rdecide:{me}:{battle}:{pause}"), (STRANGER, OTHER_SERVER)),
    Row("hoss Passer à la fin", hoss_battle, click("hoss:rskip:{me}:{battle}"), (STRANGER, OTHER_SERVER)),
    Row(
        "hoss action select",
        hoss_battle,
        click("hoss:ract:{me}:{battle}:{pause}:{message}:0", ['{{"kind":"pass"}}']),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Passer",
        hoss_battle,
        click("hoss:rpass:{me}:{battle}:{pause}:{message}"),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Défenseur",
        hoss_battle,
        click("hoss:rdef:{me}:{battle}:{pause}:{message}"),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row(
        "hoss Défenseur select",
        hoss_battle,
        click("hoss:rmove:{me}:{battle}:{pause}:{message}", ["a5 a1"]),
        (STRANGER, OTHER_SERVER, AFTER_END),
    ),
    Row("/hoss battle", hoss_battle, command("hoss battle", battle="{battle}"), (STRANGER, OTHER_SERVER)),
    Row(
        "/hoss replay",
        hoss_battle,
        command("hoss replay", id="{battle}"),
        (STRANGER, OTHER_SERVER, STRANGER_AFTER_END_ELSEWHERE),
    ),
    # HOSS boosters, copies, quotes, fusion, notices (the player's own things)
    Row("hoss flip", hoss_collection, click("hoss:flip:{opening}:1"), (STRANGER,)),
    Row("hoss flip all", hoss_collection, click("hoss:flipall:{opening}"), (STRANGER,)),
    Row("hoss sell from booster", hoss_collection, click("hoss:sellcard:{opening}", ["0"]), (STRANGER,)),
    Row("hoss copy detail", hoss_collection, click("hoss:detail:{me}", ["{copy}"]), (STRANGER,)),
    Row("/hoss sell card", hoss_collection, command("hoss sell card", copy="{copy}"), (STRANGER,)),
    Row(
        "hoss confirm sale quote",
        hoss_collection,
        click("hoss:sellq:{alice}:1:-------:1:0000000000"),
        (STRANGER,),
    ),
    Row(
        "hoss confirm fusion",
        hoss_collection,
        click("hoss:fuse:{alice}:sq_guerrier_r1:a:0:0000000000"),
        (STRANGER,),
    ),
    Row("hoss notice OK", hoss_collection, click("hoss:notice:{me}:{notice}"), (STRANGER,)),
    # Pillz duels
    Row("pillz Accepter", pillz_challenge, click("pillz:accept:{duel}"), TWO_SEATS),
    Row("pillz Refuser", pillz_challenge, click("pillz:decline:{duel}"), (STRANGER, OTHER_SERVER, AFTER_END)),
    Row("pillz Jouer (controls)", pillz_duel, click("pillz:open:{duel}"), TWO_SEATS),
    Row("pillz pick", pillz_duel, click("pillz:pick:{duel}:{version}:0", ["0"]), TWO_SEATS),
    Row("pillz pillz step", pillz_duel, click("pillz:set:{duel}:{version}:0:1:1"), TWO_SEATS),
    Row("pillz play", pillz_duel, click("pillz:go:{duel}:{version}:0:0"), TWO_SEATS),
    # the platform
    Row("outbox Voir", undelivered_dm, click("outbox:show:{item}"), (STRANGER, STRANGER_ELSEWHERE)),
    # Chocobataille (fixed by its own owner; rows kept here so the matrix covers every game)
    Row("choco Accepter", choco_challenge, click("choco:accept:{offer}"), TWO_SEATS),
    Row(
        "choco Refuser", choco_challenge, click("choco:decline:{offer}"), (STRANGER, OTHER_SERVER, AFTER_END)
    ),
    Row("choco Voir ma main", choco_game, click("choco:hand:{game}"), (STRANGER, OTHER_SERVER)),
    Row("choco Déclarer mon tour", choco_game, click("choco:panel:{game}"), (STRANGER, OTHER_SERVER)),
    Row("/choco referee-end", choco_game, command("choco referee-end", game="{game}"), (ADMIN_ELSEWHERE,)),
    Row(
        "/choco referee-extend",
        choco_game,
        command("choco referee-extend", hours="1", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row(
        "/choco referee-penalty",
        choco_game,
        command("choco referee-penalty", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row(
        "/choco referee-cancel",
        choco_game,
        command("choco referee-cancel", game="{game}"),
        (ADMIN_ELSEWHERE,),
    ),
    Row("/choco referee-log", choco_game, command("choco referee-log", game="{game}"), (ADMIN_ELSEWHERE,)),
)


# --- the check ----------------------------------------------------------------------------------------


def database_state(h: BotHarness) -> dict[str, str]:
    with sqlite3.connect(h.db_path) as conn:
        tables = [
            str(name)
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if name not in VOLATILE_TABLES and not str(name).startswith("sqlite_")
        ]
        rows = {table: conn.execute(f"SELECT * FROM {table}").fetchall() for table in tables}
    return {table: json.dumps(sorted(found, key=repr)) for table, found in rows.items()}


def public_messages(h: BotHarness) -> list[tuple[int, str, tuple[str, ...]]]:
    return [
        (m.id, shown(m), tuple(a.filename for a in m.attachments))
        for m in h.emu.messages
        if m.ephemeral_to is None and not m.deleted
    ]


CASES = [pytest.param(row, role, id=f"{row.name} — {role.name}") for row in ROWS for role in row.roles]


@pytest.mark.parametrize(("row", "role"), CASES)
async def test_a_foreign_or_late_use_is_refused_privately_and_changes_nothing(
    harness: BotHarness, row: Row, role: Role
) -> None:
    assert harness.bot is not None
    assert harness.games_channel is not None
    for name in ("alice", "bob", "carol"):
        harness.user(name)
    elsewhere = harness.emu.add_guild("Autre serveur", locale="fr")
    world = World(harness, harness.games_channel, harness.emu.add_channel(elsewhere, "jeux"))
    await harness.bot.tree.sync()  # the commands everywhere, as `/admin sync` publishes them
    scene = await row.scene(world)
    if role.ended:
        assert scene.end is not None, row.name
        await scene.end(world)
    who = {"owner": scene.owner, "opponent": scene.opponent}.get(role.who, role.who)
    assert who is not None
    actor = world.user(who)
    await harness.emu.run_command(actor, "profile", channel=world.channel(role.where))  # known to the bot
    await harness.settle()
    before, posts = database_state(harness), public_messages(harness)

    result = await row.act(world, actor, world.channel(role.where), scene.ids)
    await harness.settle()

    message = result.message
    assert message is not None, f"{row.name}: no answer"
    assert message.ephemeral, f"{row.name}: answered in public: {shown(message)}"
    assert message.attachments == [], f"{row.name}: sent a file"
    assert database_state(harness) == before, f"{row.name}: changed the database ({shown(message)})"
    assert public_messages(harness) == posts, f"{row.name}: changed a public message"
