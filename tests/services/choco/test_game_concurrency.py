"""Chocobataille games under concurrent clicks, through the real single writer on a real SQLite file:
30 accept clicks make one game, 30 identical declarations play one turn, a double "Valider" plays one
turn, a declaration racing its deadline job never gets both applied to the same version, and a forfeit
clicked twice ends the game once (one result, one reward, the ledger explains every card)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from core.errors import DomainError
from engine.choco.catalog import ChocoCatalog
from services.choco.decks import ChocoDecks
from services.choco.game_store import GameRow
from services.choco.games import ChocoGames, Declared
from services.choco.notation import to_text
from services.choco.panel import ChocoPanel, encode
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from services.shared.matches import StaleMatch
from store.connection import Connection
from store.db import Database
from tests.e2e.choco.helpers import greedy_turn
from tests.services.choco.conftest import GUILD, age, give, of_rarity

Conservation = Callable[[Connection], None]
ALICE, BOB = 1, 2
CLICKS = 30


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
def games(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, scheduler: Scheduler, registry: GameRegistry
) -> ChocoGames:
    return ChocoGames(db, clock, catalog, random.Random(7), scheduler, registry=registry)


async def ready(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, decks: ChocoDecks, registry: GameRegistry
) -> None:
    cards = [c.id for c in of_rarity(catalog, "bronze_1", "bronze_2", wizards=True)[:12]]
    for player in (ALICE, BOB):
        await give(db, clock, player, {c: 2 for c in cards}, registry=registry)
        await age(db, player, clock, 60)
        await decks.save(player, "bronze", [c for c in cards for _ in range(2)])


def only_domain_errors(results: list[object]) -> list[object]:
    unexpected = [r for r in results if isinstance(r, BaseException) and not isinstance(r, DomainError)]
    assert unexpected == []
    return [r for r in results if not isinstance(r, BaseException)]


async def count(db: Database, sql: str, *args: object) -> int:
    return int((await db.read(lambda conn: conn.execute(sql, args).fetchone()))[0])


async def started(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> GameRow:
    await ready(db, clock, catalog, decks, registry=registry)
    challenge = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="c1")
    answered = await games.answer(challenge.id, BOB, True)
    assert answered.game_id is not None
    await games.open_thread(answered.game_id, None)
    for player in (ALICE, BOB):
        assert (await games.declare_text(answered.game_id, player, "invoque M1 front")).status == "played"
    game = await games.get(answered.game_id)
    assert game.state.turn == 1
    return game


def turn_text(game: GameRow) -> str:
    seat = game.state.active
    return to_text(greedy_turn(game.state, seat), game.state, seat)


async def test_thirty_accepts_make_one_game(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> None:
    await ready(db, clock, catalog, decks, registry=registry)
    challenge = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="c1")
    results = await asyncio.gather(
        *(games.answer(challenge.id, BOB, True) for _ in range(CLICKS)), return_exceptions=True
    )
    answers = only_domain_errors(list(results))
    assert len(answers) == CLICKS
    assert {(a.status, a.game_id) for a in answers} == {("accepted", answers[0].game_id)}  # type: ignore[attr-defined]
    assert await count(db, "SELECT COUNT(*) FROM matches WHERE game = 'choco' AND number IS NOT NULL") == 1
    assert await count(db, "SELECT COUNT(*) FROM choco_game_log WHERE kind = 'created'") == 1


async def test_thirty_identical_declarations_play_one_turn(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> None:
    game = await started(db, clock, catalog, decks, games, registry)
    player = game.player(game.state.active)
    text = turn_text(game)
    results = await asyncio.gather(
        *(games.declare_text(game.id, player, text) for _ in range(CLICKS)), return_exceptions=True
    )
    played = only_domain_errors(list(results))
    assert [r.status for r in played] == ["played"]  # type: ignore[attr-defined]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert {getattr(r, "key", "") for r in refused} <= {"choco.error.not_your_turn", "choco.error.stale"}
    after = await games.get(game.id)
    assert after.state.turn == game.state.turn + 1
    assert (
        await count(
            db,
            "SELECT COUNT(*) FROM choco_game_log WHERE match_id ="
            " (SELECT id FROM matches WHERE game = 'choco' AND number = ?) AND kind = 'turn'",
            game.id,
        )
        == 1
    )


async def test_a_double_submit_plays_one_turn(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> None:
    game = await started(db, clock, catalog, decks, games, registry)
    panel = ChocoPanel(db, clock, catalog, games)
    player = game.player(game.state.active)
    for step in greedy_turn(game.state, game.state.active):
        await panel.pick(game.id, player, game.version, encode(step))
    results = await asyncio.gather(
        *(panel.submit(game.id, player, game.version) for _ in range(2)), return_exceptions=True
    )
    played = only_domain_errors(list(results))
    assert len(played) == 1
    assert isinstance(played[0], Declared)
    assert played[0].status == "played"
    assert any(isinstance(r, StaleMatch) for r in results)
    assert (
        await count(
            db,
            "SELECT COUNT(*) FROM choco_game_log WHERE match_id ="
            " (SELECT id FROM matches WHERE game = 'choco' AND number = ?) AND kind = 'turn'",
            game.id,
        )
        == 1
    )


@pytest.mark.parametrize("deadline_first", [True, False])
async def test_a_declaration_racing_its_deadline(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    scheduler: Scheduler,
    deadline_first: bool,
    registry: GameRegistry,
) -> None:
    game = await started(db, clock, catalog, decks, games, registry)
    assert game.deadline_at is not None
    clock.set(game.deadline_at)
    player = game.player(game.state.active)
    seq = await count(
        db,
        "SELECT MAX(seq) FROM choco_game_log WHERE match_id ="
        " (SELECT id FROM matches WHERE game = 'choco' AND number = ?)",
        game.id,
    )
    declare = games.declare_text(game.id, player, turn_text(game))
    fire = scheduler.run_due()
    racers = (fire, declare) if deadline_first else (declare, fire)
    results = await asyncio.gather(*racers, return_exceptions=True)
    only_domain_errors(list(results))
    kinds = [
        k
        for (k,) in await db.read(
            lambda conn: conn.execute(
                "SELECT kind FROM choco_game_log WHERE match_id ="
                " (SELECT id FROM matches WHERE game = 'choco' AND number = ?) AND seq > ? ORDER BY seq",
                (game.id, seq),
            ).fetchall()
        )
    ]
    # Either the turn alone (the deadline job found a newer version), or the penalty and then a turn
    # played on the penalized version, or the penalty alone (the declaration found it stale): never a
    # penalty after the turn it was meant for.
    assert kinds in (["turn"], ["penalty_24h", "turn"], ["penalty_24h"]), kinds
    after = await games.get(game.id)
    if "turn" in kinds:
        assert after.state.turn == game.state.turn + 1
    else:
        assert after.state.turn == game.state.turn
        assert after.stage == 1


async def test_a_forfeit_clicked_twice_ends_the_game_once(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    conservation: Conservation,
    registry: GameRegistry,
) -> None:
    game = await started(db, clock, catalog, decks, games, registry)
    cards = await count(db, "SELECT COUNT(*) FROM cards")
    results = await asyncio.gather(*(games.forfeit(game.id, ALICE) for _ in range(2)), return_exceptions=True)
    assert len(only_domain_errors(list(results))) == 1
    over = await games.get(game.id)
    assert (over.status, over.result, over.winner_seat) == ("over", "forfeit_voluntary", 1)
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT player_id, wins, losses FROM choco_results ORDER BY player_id"
        ).fetchall()
    )
    assert [tuple(r) for r in rows] == [(ALICE, 0, 1), (BOB, 1, 0)]
    assert await count(db, "SELECT COUNT(*) FROM cards") == cards + 1
    ended = await db.read(
        lambda conn: conn.execute("SELECT result FROM matches WHERE result IS NOT NULL").fetchall()
    )
    rewards = [json.loads(r[0]).get("reward_card") for r in ended]
    owners = await db.read(
        lambda conn: [
            conn.execute("SELECT owner_id FROM cards WHERE id = ?", (c,)).fetchone() for c in rewards
        ]
    )
    assert sum(o is not None and o[0] == BOB for o in owners) == 1  # the reward card went to Bob, once
    assert (
        await count(
            db,
            "SELECT COUNT(*) FROM choco_game_log WHERE match_id ="
            " (SELECT id FROM matches WHERE game = 'choco' AND number = ?) AND kind = 'end'",
            game.id,
        )
        == 1
    )
    await db.read(conservation)


async def test_only_one_click_opens_the_thread(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    decks: ChocoDecks,
    games: ChocoGames,
    registry: GameRegistry,
) -> None:
    await ready(db, clock, catalog, decks, registry=registry)
    challenge = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="c1")
    answered = await games.answer(challenge.id, BOB, True)
    assert answered.game_id is not None
    claims = await asyncio.gather(
        *(games.claim_thread(answered.game_id, f"click-{i}") for i in range(CLICKS))
    )
    assert claims.count(True) == 1
    assert await games.claim_thread(answered.game_id, "click-0") == claims[0]  # the same click, again
    clock.advance(timedelta(minutes=2))  # that click never opened it (the bot stopped): another may
    assert await games.claim_thread(answered.game_id, "late") is True
