"""The Immortal's War ranking and the /profile line: players ranked by combat points.

Combat points come only from duels between two players (services/immortals/rewards.py), so the board of
a server lists the players who finished such a duel there, by their combat points (all servers
together), then player XP, then who joined first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from core.clock import to_db
from services.community.leaderboard.spec import Standing as ServerStanding
from services.community.leaderboard.spec import Standings as ServerStandings
from services.immortals.economy import ImmortalsService
from services.infra.games import SummaryLine
from services.infra.messages import Text
from services.shared.ladder import BOARD_ALL, LEADERBOARD_SIZE
from services.shared.standings import ranked_wins
from store.connection import Connection


@dataclass(frozen=True)
class LadderEntry:
    rank: int
    player_id: int
    combat_points: int
    xp: int
    duels: int
    wins: int


@dataclass(frozen=True)
class Leaderboard:
    entries: tuple[LadderEntry, ...]
    players: int


def leaderboard(conn: Connection, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
    players = "SELECT DISTINCT player_id FROM immortals_results WHERE guild_id = :g AND opponent_id <> 0"
    rows = conn.execute(
        f"SELECT p.player_id, p.combat_points, p.xp, p.duels, p.wins FROM immortals_profiles p"
        f" JOIN ({players}) h ON h.player_id = p.player_id"
        " ORDER BY p.combat_points DESC, p.xp DESC, p.created_at, p.player_id LIMIT :limit",
        {"g": guild_id, "limit": limit},
    ).fetchall()
    total = int(conn.execute(f"SELECT COUNT(*) FROM ({players}) AS listed", {"g": guild_id}).fetchone()[0])
    return Leaderboard(tuple(LadderEntry(n, *map(int, r)) for n, r in enumerate(rows, start=1)), total)


def profile_summary(conn: Connection, player_id: int) -> list[SummaryLine]:
    """/profile: combat points, XP and record, once the player has an Immortal's War profile."""
    row = conn.execute(
        "SELECT combat_points, xp, duels, wins, draws, losses FROM immortals_profiles WHERE player_id = ?",
        (player_id,),
    ).fetchone()
    if row is None:
        return []
    points, xp, duels, wins, draws, losses = map(int, row)
    params: dict[str, object] = {
        "points": points,
        "xp": xp,
        "duels": duels,
        "wins": wins,
        "draws": draws,
        "losses": losses,
    }
    return [SummaryLine("immortals.profile.line", params)]


def server_board(conn: Connection, guild_id: int) -> list[ServerStanding]:
    """The whole board of `/immortels classement`, for `/classement serveur`."""
    board = leaderboard(conn, guild_id, limit=BOARD_ALL)
    return [
        ServerStanding(e.player_id, Text("immortals.standing.score", {"points": e.combat_points}))
        for e in board.entries
    ]


def week_board(conn: Connection, guild_id: int, since: datetime, until: datetime) -> list[ServerStanding]:
    """The week's duels won against players on the server."""
    rows = conn.execute(
        "SELECT player_id FROM immortals_results WHERE guild_id = ? AND opponent_id <> 0 AND outcome = 'win'"
        " AND recorded_at >= ? AND recorded_at < ?",
        (guild_id, to_db(since), to_db(until)),
    ).fetchall()
    return ranked_wins(Counter(int(row[0]) for row in rows))


STANDINGS = ServerStandings(server_board, week_board)


def rating(conn: Connection, player_id: int) -> int:
    """The player's combat points (a tournament seeded by rating; 0 before their first duel)."""
    row = conn.execute(
        "SELECT combat_points FROM immortals_profiles WHERE player_id = ?", (player_id,)
    ).fetchone()
    return 0 if row is None else int(row[0])


class ImmortalsLadder(ImmortalsService):
    async def leaderboard(self, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
        return await self.db.read(lambda conn: leaderboard(conn, guild_id, limit))
