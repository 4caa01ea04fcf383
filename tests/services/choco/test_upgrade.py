"""A Chocobataille game in progress when the bot upgrades to the shared matches (migration choco_matches) keeps its
number, its pending deadline job, its absence, its log and its panel draft, and plays on: the deadline
fires, a turn is declared, the game ends. A challenge sent before the upgrade is still answered through the
id its buttons carry."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock, to_db
from engine.choco import ENGINE
from engine.choco.catalog import ChocoCatalog
from engine.choco.state import ChocoState, EndTurn
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.choco.clock import ChocoClock
from services.choco.deadlines import DEADLINE_JOB
from services.choco.game_store import draft, load
from services.choco.games import ChocoGames
from services.choco.notation import to_text
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.migrate import apply_sync, discover
from tests.e2e.choco.helpers import greedy_turn
from tests.services.conftest import open_database

ALICE, BOB, CAROL = 11, 12, 13
GUILD, CHANNEL, THREAD = 555, 6, 60
GAME = 7  # the game's number: a Pillz duel holds match id 7 too
# The schema version before the choco_matches migration (whatever number it ends up with).
BEFORE = next(m.version for m in discover() if m.name == "choco_matches") - 1


def mid_game(catalog: ChocoCatalog) -> tuple[ChocoState, list[list[str]]]:
    """Both placements of the preparatory turn made and one turn played: the second player is to act."""
    setup = ENGINE.sample_setup(random.Random(5), catalog)
    decks = [list(p.deck) for p in setup.players]
    players = [PlayerSetup(seat=s, player_id=p, deck=tuple(decks[s])) for s, p in enumerate((ALICE, BOB))]
    state = ENGINE.new_game(players, 99, {CATALOG_OPTION: catalog})
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    seat = state.active
    for step in [*greedy_turn(state, seat), EndTurn()]:
        state, _ = ENGINE.apply(state, seat, step)
    return state, decks


def previous_schema(path: Path, clock: ManualClock, catalog: ChocoCatalog) -> ChocoState:
    """The database as the version before left it: game 7 mid-turn with its 24 h job and a reminder, an absence
    of the player waiting, a log, a draft of the player to act; a Pillz duel at match id 7; challenge 2 not
    answered yet."""
    now = clock.now()
    state, decks = mid_game(catalog)
    deadline, passed = now + timedelta(hours=24), now + timedelta(hours=72)
    with sqlite3.connect(path) as conn:
        apply_sync(conn, discover(), target=BEFORE)
        conn.executemany(
            "INSERT INTO players (id, created_at) VALUES (?, ?)",
            [(p, to_db(now - timedelta(days=60))) for p in (ALICE, BOB, CAROL)],
        )
        for match_id in range(1, 8):
            conn.execute(
                "INSERT INTO matches (id, game, guild_id, channel_id, status, created_at, updated_at)"
                " VALUES (?, 'pillz', ?, ?, 'over', ?, ?)",
                (match_id, GUILD, CHANNEL, to_db(now), to_db(now)),
            )
        conn.execute(
            "INSERT INTO choco_games (id, guild_id, channel_id, thread_id, league, seat0_id, seat1_id, seed,"
            " decks, state, status, version, turn_started_at, deadline_at, pass_at, stage, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, 'bronze', ?, ?, 99, ?, ?, 'live', 5, ?, ?, ?, 0, ?, ?)",
            (
                GAME,
                GUILD,
                CHANNEL,
                THREAD,
                ALICE,
                BOB,
                json.dumps(decks),
                ENGINE.to_json(state),
                to_db(now),
                to_db(deadline),
                to_db(passed),
                to_db(now),
                to_db(now),
            ),
        )
        conn.execute(
            "INSERT INTO choco_challenges (id, guild_id, channel_id, challenger_id, challenged_id, league,"
            " status, request_key, game_id, created_at, expires_at, decided_at) VALUES"
            " (1, ?, ?, ?, ?, 'bronze', 'accepted', 'choco:challenge:a', ?, ?, ?, ?),"
            " (2, ?, ?, ?, ?, 'bronze', 'pending', 'choco:challenge:b', NULL, ?, ?, NULL)",
            (
                *(GUILD, CHANNEL, ALICE, BOB, GAME, to_db(now), to_db(deadline), to_db(now)),
                *(GUILD, CHANNEL, CAROL, ALICE, to_db(now), to_db(passed + timedelta(days=1))),
            ),
        )
        conn.execute(
            "INSERT INTO jobs (id, kind, due_at, payload, created_at) VALUES (70, ?, ?, ?, ?),"
            " (71, 'choco:reminder', ?, ?, ?)",
            (
                *(DEADLINE_JOB, to_db(deadline), json.dumps({"game": GAME}), to_db(now)),
                *(to_db(deadline - timedelta(hours=1)), json.dumps({"game": GAME, "hours": 1}), to_db(now)),
            ),
        )
        conn.execute("INSERT INTO choco_game_jobs (game_id, job_id) VALUES (?, 70), (?, 71)", (GAME, GAME))
        conn.execute(
            "INSERT INTO choco_absences (game_id, player_id, starts_at, until, hours, reason, created_at)"
            " VALUES (?, ?, ?, ?, 2, 'dentiste', ?)",
            (GAME, ALICE, to_db(now), to_db(now + timedelta(hours=2)), to_db(now)),
        )
        conn.execute(
            "INSERT INTO choco_game_log (game_id, seq, at, actor_id, kind, data) VALUES"
            " (?, 1, ?, ?, 'created', '{}'), (?, 2, ?, NULL, 'opened', '{}'), (?, 3, ?, ?, 'turn', '{}')",
            (GAME, to_db(now), BOB, GAME, to_db(now), GAME, to_db(now), ALICE),
        )
        seat = state.active
        steps = [ENGINE.action_to_json(greedy_turn(state, seat)[0])]
        conn.execute(
            "INSERT INTO choco_drafts (game_id, seat, version, steps, updated_at) VALUES (?, ?, 5, ?, ?)",
            (GAME, seat, json.dumps(steps), to_db(now)),
        )
    return state


async def test_a_live_game_plays_on_after_the_upgrade(
    tmp_path: Path, catalog: ChocoCatalog, registry: GameRegistry
) -> None:
    clock = ManualClock()
    path = tmp_path / "bot.sqlite3"
    before = previous_schema(path, clock, catalog)
    db = await open_database(path)
    try:
        scheduler = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
        ChocoClock(db, clock, catalog, random.Random(5), scheduler)
        games = ChocoGames(db, clock, catalog, random.Random(3), scheduler, registry=registry)

        game = await games.get(GAME)
        assert (game.id, game.status, game.state, game.version, game.thread_id) == (
            GAME,
            "live",
            before,
            5,
            THREAD,
        )
        assert game.match_id != GAME  # match id 7 is the Pillz duel's; the number stays the game's
        assert await games.game_here(THREAD, ALICE, GUILD) == GAME
        seat = game.state.active
        assert await db.read(lambda conn: draft(conn, game, seat)) == greedy_turn(before, seat)[:1]

        # The 24 h job armed before the upgrade fires: a card of the late player's pioche is destroyed.
        assert game.deadline_at is not None
        clock.set(game.deadline_at)
        assert await scheduler.run_due() == 2  # the reminder (already past its hour) and the deadline
        hit = await games.get(GAME)
        assert (hit.stage, hit.version) == (1, game.version + 1)
        kinds = await db.read(
            lambda conn: [
                str(k)
                for (k,) in conn.execute(
                    "SELECT kind FROM choco_game_log WHERE match_id = ? ORDER BY seq", (game.match_id,)
                )
            ]
        )
        assert kinds == ["created", "opened", "turn", "penalty_24h"]

        # The late player declares; the other one's earlier absence counts towards their allowance.
        player = hit.player(hit.state.active)
        steps = greedy_turn(hit.state, hit.state.active)
        played = await games.declare_text(GAME, player, to_text(steps, hit.state, hit.state.active), GUILD)
        assert played.status == "played"
        moved = await games.get(GAME)
        assert moved.state.turn == hit.state.turn + 1
        assert moved.stage == 0
        absences = await games.absence(THREAD, ALICE, 200, "vacances", GUILD)
        assert absences[0].problem is not None
        assert absences[0].problem.key == "choco.error.absence_cap"
        assert absences[0].problem.params["left"] == 168 - 2

        # The game ends: a forfeit, the winner's reward card, the results.
        over = await games.forfeit(GAME, ALICE, GUILD)
        assert (over.status, over.result, over.winner_seat) == ("over", "forfeit_voluntary", 1)
        assert over.reward_card is not None
        owner = await db.read(
            lambda conn: conn.execute(
                "SELECT owner_id FROM cards WHERE id = ?", (over.reward_card,)
            ).fetchall()
        )
        assert [tuple(r) for r in owner] == [(BOB,)]
        left = await db.read(lambda conn: conn.execute("SELECT COUNT(*) FROM match_jobs").fetchall())
        assert [tuple(r) for r in left] == [(0,)]

        # The challenge sent before the upgrade is answered through its former id.
        answered = await games.answer(2, ALICE, False, GUILD)
        assert (answered.status, answered.challenger_id, answered.game_id) == ("declined", CAROL, None)
        assert answered.id != 2
        again = await games.answer(2, ALICE, True, GUILD)  # a second answer gets the challenge back
        assert again.status == "declined"
        assert await db.read(lambda conn: load(conn, GAME).status) == "over"
    finally:
        await db.close()
