"""The inactivity ladder (V.2) in the preparatory turn, through the game service and its deadline jobs:
the preparatory turn is the game's first turn (IV.1), so each player it still waits for loses a random
pioche card at D and has their placement forced at 3 D (a passed turn), and the thread says that the
placement was forced by inactivity without naming the card before the reveal."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from discord_app.render import text
from engine.choco.catalog import ChocoCatalog
from services.choco.clock import ChocoClock
from services.choco.games import ChocoGames
from services.choco.referee import ChocoReferee, Referee
from services.choco.text import card_name
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.choco.conftest import GUILD
from tests.services.choco.helpers import ALICE, BOB, started

FORCED = "Placement forcé par inactivité"
PENALTY = "Pénalité d'inactivité"


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
def games(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, scheduler: Scheduler, registry: GameRegistry
) -> ChocoGames:
    ChocoClock(db, clock, catalog, random.Random(5), scheduler)  # registers the deadline jobs
    return ChocoGames(db, clock, catalog, random.Random(3), scheduler, registry=registry)


async def fire_at(clock: ManualClock, scheduler: Scheduler, when: datetime | None) -> None:
    assert when is not None
    clock.set(when)
    await scheduler.run_due()


async def kinds(db: Database, game_id: int) -> list[tuple[str, int | None]]:
    def unit(conn: Connection) -> list[tuple[str, int | None]]:
        rows = conn.execute(
            "SELECT kind, data FROM choco_game_log WHERE match_id ="
            " (SELECT id FROM matches WHERE game = 'choco' AND number = ?) ORDER BY seq",
            (game_id,),
        ).fetchall()
        seats = [json.loads(data).get("seat") if data else None for _, data in rows]
        return [(str(k), None if s is None else int(s)) for (k, _), s in zip(rows, seats, strict=True)]

    return await db.read(unit)


async def thread_texts(db: Database) -> list[str]:
    """Every channel post, all its text in French, oldest first."""

    def unit(conn: Connection) -> list[str]:
        rows = conn.execute("SELECT payload FROM outbox WHERE target_kind = 'channel' ORDER BY id").fetchall()
        return [str(r[0]) for r in rows]

    out = []
    for payload in await db.read(unit):
        spec = MessageSpec.from_json(payload)
        parts = [text(spec.content, "fr")] + [
            text(e.description, "fr") for e in spec.embeds if e.description is not None
        ]
        out.append("\n".join(parts))
    return out


async def test_at_d_each_late_player_loses_a_pioche_card(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    scheduler: Scheduler,
    registry: GameRegistry,
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    assert (await games.declare_text(game_id, ALICE, "invoque M1 front")).status == "played"
    game = await games.get(game_id)
    bob = game.seats.index(BOB)
    alice = 1 - bob
    pioches = [len(side.pioche) for side in game.state.sides]

    assert game.deadline_at is not None
    await fire_at(clock, scheduler, game.deadline_at - timedelta(minutes=1))
    assert (await games.get(game_id)).version == game.version  # nothing before D

    await fire_at(clock, scheduler, game.deadline_at)
    after = await games.get(game_id)
    assert after.stage == 1
    assert after.state.turn == 0
    assert len(after.state.sides[bob].pioche) == pioches[bob] - 1
    assert len(after.state.sides[bob].graveyard) == 1
    assert len(after.state.sides[alice].pioche) == pioches[alice]
    assert after.state.sides[alice].graveyard == ()
    assert (await kinds(db, game_id))[-1] == ("penalty_24h", bob)
    post = (await thread_texts(db))[-1]
    assert PENALTY in post
    assert f"<@{BOB}>" in post
    # the call that follows names the 3 D deadline, and bob may still place his card
    assert after.pass_at is not None
    assert str(int(after.pass_at.timestamp())) in post
    assert (await games.declare_text(game_id, BOB, "invoque M1 front")).status == "played"
    assert (await games.get(game_id)).state.turn == 1


async def test_at_3d_the_placement_is_forced_passed_and_told(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    scheduler: Scheduler,
    registry: GameRegistry,
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    game = await games.get(game_id)
    hands = [{c.uid for c in side.hand} for side in game.state.sides]

    await fire_at(clock, scheduler, game.deadline_at)
    assert [k for k in await kinds(db, game_id) if k[0] == "penalty_24h"] == [
        ("penalty_24h", 0),
        ("penalty_24h", 1),
    ]
    posts_at_d = await thread_texts(db)
    assert sum(PENALTY in p for p in posts_at_d) == 1  # one post tells both penalties
    assert posts_at_d[-1].count(PENALTY) == 2

    await fire_at(clock, scheduler, game.pass_at)
    after = await games.get(game_id)
    assert after.state.turn == 1
    assert after.state.passes == (1, 1)
    for seat in (0, 1):
        placed = after.state.sides[seat].front
        assert len(placed) == 1
        assert placed[0].uid in hands[seat]
        assert not placed[0].pure
    assert [k for k in await kinds(db, game_id) if k[0] == "penalty_72h"] == [
        ("penalty_72h", 0),
        ("penalty_72h", 1),
    ]
    post = (await thread_texts(db))[-1]
    forced = [line for line in post.splitlines() if FORCED in line]
    assert len(forced) == 2
    assert f"<@{ALICE}>" in forced[0] + forced[1]
    assert f"<@{BOB}>" in forced[0] + forced[1]
    names = {text(card_name(catalog, c.id), "fr") for c in catalog.cards}
    assert not any(name in line for line in forced for name in names)  # the card is told by the reveal only
    assert "dévoile" in post  # IV.1.3: the referee announces both cards


async def test_an_absence_of_the_late_player_makes_d_wait_and_each_penalty_is_cancelled_alone(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    scheduler: Scheduler,
    registry: GameRegistry,
) -> None:
    game_id = await started(db, clock, catalog, games, registry)
    game = await games.get(game_id)
    assert game.deadline_at is not None
    assert game.pass_at is not None
    clock.set(game.deadline_at - timedelta(hours=1))
    await games.absence(77, BOB, 5, "train")  # in the game's thread: bob is away for D

    await fire_at(clock, scheduler, game.deadline_at)
    waited = await games.get(game_id)
    assert waited.stage == 0
    assert waited.deadline_at == game.deadline_at + timedelta(hours=4)
    assert waited.pass_at == game.pass_at + timedelta(hours=4)
    assert not [k for k in await kinds(db, game_id) if k[0] == "penalty_24h"]

    await fire_at(clock, scheduler, waited.deadline_at)  # both late, nobody away: two penalties
    penalized = await games.get(game_id)
    assert all(len(side.graveyard) == 1 for side in penalized.state.sides)
    referee = Referee(user_id=90, guild_id=GUILD, role_ids=(), manage_guild=True)
    judge = ChocoReferee(db, clock, catalog, random.Random(1))
    assert await judge.cancel_penalty(game_id, referee) == "penalty_24h"
    once = await games.get(game_id)
    assert [len(side.graveyard) for side in once.state.sides] == [1, 0]
    assert await judge.cancel_penalty(game_id, referee) == "penalty_24h"
    assert all(side.graveyard == () for side in (await games.get(game_id)).state.sides)
