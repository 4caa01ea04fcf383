"""The Immortal's War ranking and the /profile line: players ranked by combat points.

Combat points come only from duels between two players (services/immortals/rewards.py), so the board of
a server lists the players who finished such a duel there, by their combat points (all servers
together), then player XP, then who joined first.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from services.immortals.economy import ImmortalsService
from services.platform.games import SummaryLine
from services.shared.ladder import LEADERBOARD_SIZE


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


def leaderboard(conn: sqlite3.Connection, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
    players = "SELECT DISTINCT player_id FROM immortals_results WHERE guild_id = :g AND opponent_id <> 0"
    rows = conn.execute(
        f"SELECT p.player_id, p.combat_points, p.xp, p.duels, p.wins FROM immortals_profiles p"
        f" JOIN ({players}) h ON h.player_id = p.player_id"
        " ORDER BY p.combat_points DESC, p.xp DESC, p.created_at, p.player_id LIMIT :limit",
        {"g": guild_id, "limit": limit},
    ).fetchall()
    total = int(conn.execute(f"SELECT COUNT(*) FROM ({players}) AS listed", {"g": guild_id}).fetchone()[0])
    return Leaderboard(tuple(LadderEntry(n, *map(int, r)) for n, r in enumerate(rows, start=1)), total)


def profile_summary(conn: sqlite3.Connection, player_id: int) -> list[SummaryLine]:
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


def rating(conn: sqlite3.Connection, player_id: int) -> int:
    """The player's combat points (a tournament seeded by rating; 0 before their first duel)."""
    row = conn.execute(
        "SELECT combat_points FROM immortals_profiles WHERE player_id = ?", (player_id,)
    ).fetchone()
    return 0 if row is None else int(row[0])


class ImmortalsLadder(ImmortalsService):
    async def leaderboard(self, guild_id: int, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
        return await self.db.read(lambda conn: leaderboard(conn, guild_id, limit))
