"""Chocobataille for newcomers (issue 17): a friendly challenge without league entry that counts for
nothing, and a practice game against the bot, which answers at once (docs/choco/practice.md)."""

from __future__ import annotations

import random
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from discord_app.render import text
from engine.choco import ENGINE, Prepare, Turn, ai_turn
from engine.choco.catalog import ChocoCatalog
from services.choco.clock import ChocoClock
from services.choco.deadlines import PRACTICE_IDLE
from services.choco.decks import ChocoDecks
from services.choco.games import ChocoGames
from services.choco.practice import ChocoPractice, practice_deck
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.choco.conftest import GUILD, age, give, of_rarity

ALICE, BOB = 41, 42


@pytest.fixture
def scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


@pytest.fixture
def games(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, scheduler: Scheduler, registry: GameRegistry
) -> ChocoGames:
    ChocoClock(db, clock, catalog, random.Random(5), scheduler)  # registers the deadline jobs
    return ChocoGames(db, clock, catalog, random.Random(3), scheduler, registry=registry)


@pytest.fixture
def practice(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, registry: GameRegistry
) -> ChocoPractice:
    return ChocoPractice(db, clock, catalog, random.Random(9), registry=registry)


async def newcomer(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, player: int, registry: GameRegistry
) -> None:
    """A player who arrived today, with the cards of a Bronze deck and that deck saved."""
    chosen = [c.id for c in of_rarity(catalog, "bronze_1", wizards=True)][:12]
    await give(db, clock, player, {c: 2 for c in chosen}, registry=registry)
    await ChocoDecks(db, clock, catalog, registry=registry).save(
        player, "bronze", [c for c in chosen for _ in range(2)]
    )


async def counted(db: Database) -> tuple[int, int]:
    """Result rows, and reward cards minted."""

    def unit(conn: Connection) -> tuple[int, int]:
        results = conn.execute("SELECT COUNT(*) FROM choco_results").fetchone()[0]
        rewards = conn.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'choco.reward'").fetchone()[0]
        return int(results), int(rewards)

    return await db.read(unit)


async def thread_texts(db: Database) -> list[str]:
    """Every channel post in French, embed titles included, oldest first."""
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'channel' ORDER BY id"
        ).fetchall()
    )
    out = []
    for row in rows:
        spec = MessageSpec.from_json(str(row[0]))
        parts = [text(spec.content, "fr")]
        for embed in spec.embeds:
            parts += [text(t, "fr") for t in (embed.title, embed.description) if t is not None]
        out.append("\n".join(parts))
    return out


async def dms_to(db: Database) -> list[int]:
    rows = await db.read(
        lambda conn: conn.execute("SELECT target_id FROM outbox WHERE target_kind = 'dm'").fetchall()
    )
    return [int(r[0]) for r in rows]


async def play_out(games: ChocoGames, game_id: int, player: int) -> int:
    """The player plays the bot's own policy from seat 0 until the end; returns the declarations made.
    After each one the game waits for the player again (the bot answered in the same unit) or is over."""
    declared = 0
    while (game := await games.get(game_id)).status == "live":
        assert game.to_act() == [0]
        answer = ai_turn(game.state, 0)
        steps = list(answer.steps) if isinstance(answer, Turn) else [answer]
        assert (await games.declare(game_id, player, steps)).status == "played"
        declared += 1
        assert declared < 250
    return declared


# --- friendly -------------------------------------------------------------------------------------------


async def test_newcomers_play_a_friendly_game_that_counts_for_nothing(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    for player in (ALICE, BOB):
        await newcomer(db, clock, catalog, player, registry=registry)
    with pytest.raises(NotAllowed) as closed:  # the ranked league asks for a month of membership (VI.1)
        await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="ranked")
    assert closed.value.key == "choco.error.league_closed"

    made = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="friendly", friendly=True)
    assert made.friendly
    answered = await games.answer(made.id, BOB, True, GUILD)
    assert answered.status == "accepted"
    assert answered.game_id is not None
    game = await games.open_thread(answered.game_id, 88)
    assert game.mode == "friendly"
    assert "Partie amicale n°" in (await thread_texts(db))[-1]

    for player in (ALICE, BOB):
        assert (await games.declare_text(game.id, player, "invoque M1 front")).status == "played"
    await games.forfeit(game.id, BOB)
    over = await games.get(game.id)
    assert over.status == "over"
    assert over.result == "forfeit_voluntary"
    assert over.reward_card is None
    assert await counted(db) == (0, 0)
    assert "Partie amicale n°" in (await thread_texts(db))[-1]


async def test_a_friendly_game_still_needs_a_valid_deck_of_the_leagues_cards(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    await newcomer(db, clock, catalog, ALICE, registry=registry)
    with pytest.raises(NotAllowed) as refused:
        await games.challenge(GUILD, 10, ALICE, BOB, "argent", key="argent", friendly=True)
    assert refused.value.key == "choco.error.deck_invalid"


async def test_a_ranked_game_between_veterans_still_counts(
    db: Database, clock: ManualClock, catalog: ChocoCatalog, games: ChocoGames, registry: GameRegistry
) -> None:
    for player in (ALICE, BOB):
        await newcomer(db, clock, catalog, player, registry=registry)
        await age(db, player, clock, 60)
    made = await games.challenge(GUILD, 10, ALICE, BOB, "bronze", key="ranked")
    assert not made.friendly
    answered = await games.answer(made.id, BOB, True, GUILD)
    assert answered.game_id is not None
    game = await games.open_thread(answered.game_id, 88)
    assert game.mode == "ranked"
    await games.forfeit(game.id, BOB)
    assert await counted(db) == (2, 1)


# --- practice -------------------------------------------------------------------------------------------


async def test_a_newcomer_starts_a_practice_game_the_bot_has_placed(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    practice: ChocoPractice,
    registry: GameRegistry,
) -> None:
    await newcomer(db, clock, catalog, ALICE, registry=registry)
    game = await practice.start(GUILD, 10, ALICE, "bronze", key=1)
    assert game.seats == (ALICE, None)
    assert game.mode == "practice"
    assert game.state.prepared[1] is not None  # the bot's card is down, face down
    assert game.to_act() == [0]
    assert await practice.start(GUILD, 10, ALICE, "bronze", key=1) == game  # a double click
    game = await games.open_thread(game.id, 99)
    assert await dms_to(db) == [ALICE]  # one hand, the player's: the bot's seat has nobody to tell
    opening = (await thread_texts(db))[-1]
    assert "Entraînement n°" in opening
    assert "L'Entraîneur (bot)" in opening
    assert game.deadline_at == clock.now() + PRACTICE_IDLE


async def test_the_bot_answers_at_once_and_the_game_ends_with_nothing_counted(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    practice: ChocoPractice,
    registry: GameRegistry,
) -> None:
    await newcomer(db, clock, catalog, ALICE, registry=registry)
    game = await games.open_thread((await practice.start(GUILD, 10, ALICE, "bronze", key=2)).id, 99)
    before = clock.now()
    declared = await play_out(games, game.id, ALICE)
    assert clock.now() == before  # nobody waited: every answer came in the player's own unit
    over = await games.get(game.id)
    assert over.status == "over"
    assert over.reward_card is None
    assert await counted(db) == (0, 0)
    assert declared > 2
    assert set(await dms_to(db)) == {ALICE}
    kinds = await db.read(
        lambda conn: [
            str(r[0])
            for r in conn.execute(
                "SELECT kind FROM choco_game_log WHERE match_id = ? ORDER BY seq", (over.match_id,)
            )
        ]
    )
    assert kinds.count("bot_prepare") == 1
    assert kinds.count("bot_turn") >= declared - 2


async def test_one_live_practice_game_at_a_time(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    practice: ChocoPractice,
    registry: GameRegistry,
) -> None:
    await newcomer(db, clock, catalog, ALICE, registry=registry)
    game = await practice.start(GUILD, 10, ALICE, "bronze", key=3)
    with pytest.raises(NotAllowed) as running:
        await practice.start(GUILD, 10, ALICE, "bronze", key=4)
    assert running.value.key == "choco.error.practice_running"
    await games.forfeit(game.id, ALICE)
    assert (await practice.start(GUILD, 10, ALICE, "bronze", key=5)).id != game.id
    assert await counted(db) == (0, 0)


async def test_an_idle_practice_game_has_no_penalty_and_is_cancelled_after_a_week(
    db: Database,
    clock: ManualClock,
    catalog: ChocoCatalog,
    games: ChocoGames,
    practice: ChocoPractice,
    scheduler: Scheduler,
    registry: GameRegistry,
) -> None:
    await newcomer(db, clock, catalog, ALICE, registry=registry)
    game = await games.open_thread((await practice.start(GUILD, 10, ALICE, "bronze", key=6)).id, 99)
    clock.advance(timedelta(days=3))
    await scheduler.run_due()
    waited = await games.get(game.id)
    assert waited.version == game.version  # no 24 h or 72 h penalty
    assert waited.state == game.state
    clock.advance(PRACTICE_IDLE - timedelta(days=3))
    await scheduler.run_due()
    cancelled = await games.get(game.id)
    assert cancelled.status == "cancelled"
    assert "annulée" in (await thread_texts(db))[-1]
    assert await counted(db) == (0, 0)


def test_the_bots_deck_is_legal_for_each_league(catalog: ChocoCatalog) -> None:
    for league in ("bronze", "argent", "or"):
        for seed in range(20):
            deck = practice_deck(catalog, league, random.Random(seed))
            setup = ENGINE.sample_setup(random.Random(seed), catalog)
            assert len(deck) == 24
            assert max(deck.count(c) for c in deck) <= 2
            players = [setup.players[0], setup.players[1].__class__(1, 0, tuple(deck))]
            state = ENGINE.new_game(players, seed, setup.options)  # raises for an illegal deck
            assert isinstance(ai_turn(state, 1), Prepare)
