"""Every game's standings read a server: its whole board and a week's best, on an empty server and on one
where it has results (the SQL of each game's own tables, run on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.clock import ManualClock, to_db
from services.community.leaderboard.spec import Standings
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database
from tests.support.registries import every_game

GUILD = 9_000
ALICE, BOB = 301, 302
SINCE = datetime(2026, 3, 2, tzinfo=UTC)
GAMES = [spec.key for spec in every_game().all_games() if spec.standings is not None]


def standings_of(game: str) -> Standings:
    spec = every_game().get(game)
    assert spec is not None
    assert spec.standings is not None
    return spec.standings


def test_every_game_declares_its_standings() -> None:
    assert GAMES == ["choco", "dinocard", "hoss", "immortals", "pillz"]


@pytest.mark.parametrize("game", GAMES)
async def test_an_empty_server_has_an_empty_board_and_week(db: Database, game: str) -> None:
    standings = standings_of(game)

    def unit(conn: Connection) -> tuple[int, int]:
        week = standings.week(conn, GUILD, SINCE, SINCE + timedelta(days=7))
        return len(standings.board(conn, GUILD)), len(week)

    assert await db.read(unit) == (0, 0)


async def test_hoss_ranks_by_rank_reached_and_counts_the_weeks_battles_won(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    clock.set(SINCE + timedelta(days=1))
    now = clock.now()

    def unit(conn: Connection) -> None:
        for player, rank, wins in ((ALICE, 1, 3), (BOB, 2, 1)):
            ensure_player(conn, player, now, registry)
            conn.execute(
                "INSERT INTO hoss_rank_progress (player_id, rank, wins, losses) VALUES (?, ?, ?, 0)",
                (player, rank, wins),
            )
        for player, status in ((ALICE, "won"), (ALICE, "won"), (BOB, "lost")):
            match = conn.execute(
                "INSERT INTO matches (game, kind, guild_id, channel_id, status, result, created_at, updated_at,"
                " ended_at) VALUES ('hoss', 'ranked', ?, 1, 'over', ?, ?, ?, ?) RETURNING id",
                (GUILD, f'{{"status": "{status}"}}', to_db(now), to_db(now), to_db(now)),
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, 0, ?)", (match, player)
            )
            conn.execute("INSERT INTO match_seats (match_id, seat, player_id) VALUES (?, 1, NULL)", (match,))

    await db.write(unit)
    hoss = standings_of("hoss")
    board = await db.read(lambda conn: hoss.board(conn, GUILD))
    week = await db.read(lambda conn: hoss.week(conn, GUILD, SINCE, SINCE + timedelta(days=7)))

    assert [s.player_id for s in board] == [ALICE, BOB]  # Rang 1 with 3 wins: no Rang 2 unlocked for bob
    assert [(s.player_id, s.score.params["wins"]) for s in week] == [(ALICE, 2)]
