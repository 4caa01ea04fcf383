"""The ladder: Elo from known values, friend-match rewards with the per-pair daily cap, idempotency per
duel, the server leaderboard and the /profile line."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from core.clock import ManualClock
from services.infra.games import GameRegistry
from services.pillz import PillzEconomy
from services.pillz.ladder import (
    elo_delta,
    leaderboard,
    profile_summary,
    record_friend_result,
)
from services.shared.ladder import expected_score
from store.connection import Connection
from store.db import Database
from tests.services.pillz.conftest import gold

Conservation = Callable[[Connection], None]
GUILD = 555


def test_elo_known_values() -> None:
    assert expected_score(1000, 1000) == 0.5
    assert round(expected_score(1200, 1000), 4) == 0.7597
    assert elo_delta(1000, 1000, 1.0) == 16
    assert elo_delta(1000, 1000, 0.0) == -16
    assert elo_delta(1000, 1000, 0.5) == 0
    assert elo_delta(1200, 1000, 1.0) == 8  # 32 x 0.2403 = 7.69
    assert elo_delta(1200, 1000, 0.0) == -24  # 32 x -0.7597 = -24.31
    assert elo_delta(1200, 1000, 0.5) == -8  # 32 x -0.2597 = -8.31
    assert elo_delta(1000, 1200, 1.0) == 24
    assert elo_delta(1000, 1200, 0.5) == 8
    assert elo_delta(1800, 1000, 1.0) == 0  # 32 x 0.0099
    assert elo_delta(1000, 1800, 0.0) == 0


async def test_a_win_moves_ratings_and_pays(
    db: Database, economy: PillzEconomy, conservation: Conservation
) -> None:
    first, second = await economy.ladder.record(GUILD, 1, (10, 20), 0)
    assert (first.outcome, first.gold, first.capped, first.rating_before, first.rating_after) == (
        "win",
        40,
        False,
        1000,
        1016,
    )
    assert (second.outcome, second.gold, second.rating_after) == ("loss", 0, 984)
    assert await gold(db, 10) == 340
    assert await gold(db, 20) == 300
    draw = await economy.ladder.record(GUILD, 2, (20, 10), None)
    assert [(r.outcome, r.gold, r.rating_before, r.rating_after) for r in draw] == [
        ("draw", 15, 984, 985),  # 32 x (0.5 - 0.4540) = 1.47
        ("draw", 15, 1016, 1015),
    ]
    await db.read(conservation)


async def test_the_same_duel_twice_changes_nothing(db: Database, economy: PillzEconomy) -> None:
    once = await economy.ladder.record(GUILD, 7, (10, 20), 1)
    again = await economy.ladder.record(GUILD, 7, (10, 20), 0)  # a retry, even with other data
    assert again == once
    assert await gold(db, 20) == 340
    assert await gold(db, 10) == 300
    board = await economy.ladder.leaderboard(GUILD)
    assert [(e.player_id, e.games) for e in board.entries] == [(20, 1), (10, 1)]


async def test_the_fourth_match_of_the_day_pays_nothing_then_the_next_day_pays(
    db: Database, clock: ManualClock, economy: PillzEconomy
) -> None:
    clock.set(clock.now().replace(hour=10, minute=0))
    paid = []
    for duel, seats in enumerate([(10, 20), (20, 10), (10, 20), (20, 10), (10, 20)], start=1):
        a, b = await economy.ladder.record(GUILD, duel, seats, 0)
        paid.append((a.gold, a.capped, b.capped))
    assert paid == [(40, False, False)] * 3 + [(0, True, True)] * 2
    # Another opponent is not capped, and the capped matches still counted for Elo and statistics.
    a, _ = await economy.ladder.record(GUILD, 6, (10, 30), None)
    assert (a.gold, a.capped) == (15, False)
    summary = await db.read(lambda conn: profile_summary(conn, 10))
    assert summary[0].params == {
        "rating": summary[0].params["rating"],
        "games": 6,
        "wins": 3,
        "draws": 1,
        "losses": 2,
    }
    clock.advance(timedelta(hours=14))  # the next UTC day
    a, b = await economy.ladder.record(GUILD, 7, (20, 10), 1)
    assert (b.gold, b.capped, a.capped) == (40, False, False)


async def test_leaderboard_is_per_server_top_ten_by_rating(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    def unit(conn: Connection) -> None:
        for duel in range(12):
            record_friend_result(conn, clock.now(), registry, GUILD, duel, (100 + duel, 200 + duel), 0)
        record_friend_result(conn, clock.now(), registry, 999, 50, (300, 301), 0)

    await db.write(unit)
    board = await db.read(lambda conn: leaderboard(conn, GUILD))
    assert board.players == 24
    assert len(board.entries) == 10
    assert [e.rank for e in board.entries] == list(range(1, 11))
    assert all(e.rating == 1016 and e.wins == 1 for e in board.entries)
    assert 300 not in {e.player_id for e in board.entries}
    assert (await db.read(lambda conn: leaderboard(conn, 999))).players == 2
    assert await db.read(lambda conn: profile_summary(conn, 4242)) == []


async def test_bad_calls_are_refused(db: Database, clock: ManualClock, registry: GameRegistry) -> None:
    with pytest.raises(ValueError, match="needs two different players"):
        await db.write(lambda conn: record_friend_result(conn, clock.now(), registry, GUILD, 1, (5, 5), 0))
    with pytest.raises(ValueError, match="winner_seat must be 0, 1 or None"):
        await db.write(lambda conn: record_friend_result(conn, clock.now(), registry, GUILD, 1, (5, 6), 2))
