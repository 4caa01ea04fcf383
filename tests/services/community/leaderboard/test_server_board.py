"""`/classement serveur` and the week's best: each game's own ranking turned into places and points, and
the wins of a week read from each game's results."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from core.clock import ManualClock, to_db
from services.choco.leagues import record_result
from services.choco.standings import week_board as choco_week
from services.community.leaderboard.service import LeaderboardService, combine, points_of
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.pillz.ladder import record_friend_result
from services.pillz.ladder import week_board as pillz_week
from store.connection import Connection
from store.db import Database

GUILD, OTHER = 7_000, 7_001
ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
MONDAY = datetime(2026, 3, 2, tzinfo=UTC)


def test_places_become_points_ten_for_the_first_down_to_one_for_the_tenth() -> None:
    assert [points_of(place) for place in range(1, 12)] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]


def test_the_games_add_up_and_ties_go_to_the_better_best_place_then_more_games() -> None:
    lines = combine(
        {
            "hoss": [ALICE, BOB],  # alice 10, bob 9
            "pillz": [CAROL, ALICE, DAVE],  # carol 10, alice 9, dave 8
            "choco": [DAVE, BOB],  # dave 10, bob 9
        }
    )

    assert [(line.player_id, line.points) for line in lines] == [
        (ALICE, 19),
        (DAVE, 18),
        (BOB, 18),
        (CAROL, 10),
    ]
    assert [line.place for line in lines] == [1, 2, 3, 4]  # dave's best place is a 1st, bob's a 2nd


def test_at_equal_points_and_best_place_more_games_placed_comes_first() -> None:
    fillers = list(range(1_000, 1_010))
    lines = combine(
        {
            "hoss": [ALICE],  # alice 10
            "choco": [*fillers[:8], ALICE],  # alice 9th: 2
            "pillz": [BOB],  # bob 10
            "dinocard": [*fillers[:9], BOB],  # bob 10th: 1
            "immortals": [*fillers[:9], BOB],  # bob 10th: 1
        }
    )
    first = [line for line in lines if line.player_id in (ALICE, BOB)]

    assert [(line.player_id, line.points) for line in first] == [(BOB, 12), (ALICE, 12)]


async def test_the_server_board_reads_each_games_own_board_of_this_server(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    now = clock.now()

    def unit(conn: Connection) -> None:
        for player in (ALICE, BOB, CAROL):
            ensure_player(conn, player, now, registry)
        record_friend_result(conn, now, registry, GUILD, 1, (ALICE, BOB), 0)  # Pillz: alice above bob
        record_result(conn, GUILD, CAROL, "bronze", "win", absence_forfeit=False, cards_lost=0)  # Choco
        record_result(conn, OTHER, BOB, "bronze", "win", absence_forfeit=False, cards_lost=0)  # elsewhere

    await db.write(unit)
    board = await LeaderboardService(db, registry).server(GUILD, ALICE)

    assert [(line.player_id, line.points) for line in board.lines] == [(ALICE, 10), (CAROL, 10), (BOB, 9)]
    assert dict(board.lines[0].places) == {"pillz": 1}
    assert board.viewer is None


async def test_a_weeks_best_are_the_weeks_wins_on_this_server(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    clock.set(MONDAY + timedelta(days=2))
    now = clock.now()

    def unit(conn: Connection) -> None:
        for player in (ALICE, BOB):
            ensure_player(conn, player, now, registry)
        for duel in (1, 2):
            record_friend_result(conn, now, registry, GUILD, duel, (ALICE, BOB), 1)  # bob wins twice
        record_friend_result(conn, now, registry, GUILD, 3, (ALICE, BOB), 0)
        record_friend_result(conn, now, registry, OTHER, 4, (ALICE, BOB), 0)  # another server
        record_friend_result(conn, now - timedelta(days=7), registry, GUILD, 5, (ALICE, BOB), 0)  # last week
        # Chocobataille: a game between the two (alice wins), and a practice game against the bot
        games: tuple[tuple[tuple[int, int | None], int], ...] = (((ALICE, BOB), 0), ((ALICE, None), 0))
        for seats, winner in games:
            match = conn.execute(
                "INSERT INTO matches (game, kind, guild_id, channel_id, status, result, created_at, updated_at,"
                " ended_at) VALUES ('choco', 'bronze', ?, 1, 'over', ?, ?, ?, ?) RETURNING id",
                (GUILD, json.dumps({"result": "win", "winner": winner}), to_db(now), to_db(now), to_db(now)),
            ).fetchone()[0]
            for seat, seated in enumerate(seats):
                conn.execute(
                    "INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, ?, ?)",
                    (match, seat, seated),
                )

    await db.write(unit)
    week = (MONDAY, MONDAY + timedelta(days=7))
    pillz = await db.read(lambda conn: pillz_week(conn, GUILD, *week))
    choco = await db.read(lambda conn: choco_week(conn, GUILD, *week))

    assert [(s.player_id, s.score.params["wins"]) for s in pillz] == [(BOB, 2), (ALICE, 1)]
    assert [(s.player_id, s.score.params["wins"]) for s in choco] == [(ALICE, 1)]
