"""HOSS's ranked standings: a server's leaderboard (`/hoss classement`) and the player's /profile line.

Decision (docs/hoss/ranked.md, "Leaderboard"): players are ranked by the highest rank they unlocked (the
rank they reached: `highest_unlocked_rank`, the rule that opens ranks and boosters), then by their
counted wins over every rank, then by fewer counted losses, then by who has the smaller Discord id (a
fixed order). A server's board lists the players who played a battle started in that server (a ranked
battle or an Arena attack: a match of game `hoss` whose `guild_id` is the server's) and have at least one
counted battle; their figures are their totals, as rank progress is one per player, not per server. A
battle played in direct messages puts nobody on any server's board. There is no rating: the AI's ranks
are the scale.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from engine.hoss import highest_unlocked_rank
from services.community.leaderboard.spec import Standing as ServerStanding
from services.community.leaderboard.spec import Standings as ServerStandings
from services.hoss.keys import RANK_NAME_KEYS
from services.infra.games import SummaryLine
from services.infra.messages import Text
from services.shared.ladder import LEADERBOARD_SIZE, top
from services.shared.standings import match_wins
from store.connection import Connection
from store.db import Database


@dataclass(frozen=True)
class Standing:
    player_id: int
    highest: int  # the highest unlocked rank, 1..9
    wins: int  # counted wins over every rank
    losses: int  # counted losses (draws included) over every rank

    @property
    def order(self) -> tuple[int, int, int, int]:
        return (-self.highest, -self.wins, self.losses, self.player_id)


@dataclass(frozen=True)
class StandingEntry:
    place: int
    standing: Standing


@dataclass(frozen=True)
class Standings:
    entries: tuple[StandingEntry, ...]  # the top players, best first
    players: int  # every player on the board, before the cut
    viewer: StandingEntry | None  # the player who asked, when on the board but below the cut


PLAYED_HERE = (
    "SELECT 1 FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE s.player_id = p.player_id AND m.game = 'hoss' AND m.guild_id = ?"
)


def _standings(rows: list[tuple[int, int, int, int]]) -> list[Standing]:
    wins: dict[int, dict[int, int]] = defaultdict(dict)
    losses: dict[int, int] = defaultdict(int)
    for player, rank, won, lost in rows:
        wins[player][rank] = won
        losses[player] += lost
    found = [
        Standing(player, highest_unlocked_rank(by_rank), sum(by_rank.values()), losses[player])
        for player, by_rank in wins.items()
        if sum(by_rank.values()) + losses[player] > 0
    ]
    return sorted(found, key=lambda s: s.order)


def _board(conn: Connection, guild_id: int) -> list[Standing]:
    rows = conn.execute(
        "SELECT p.player_id, p.rank, p.wins, p.losses FROM hoss_rank_progress p"
        f" WHERE EXISTS ({PLAYED_HERE})",
        (guild_id,),
    ).fetchall()
    return _standings(rows)


def leaderboard(
    conn: Connection, guild_id: int, viewer: int | None = None, limit: int = LEADERBOARD_SIZE
) -> Standings:
    """This server's board (see the module's docstring for who is on it and in which order)."""
    ranked = [StandingEntry(place, s) for place, s in enumerate(_board(conn, guild_id), start=1)]
    shown, count = top(ranked, limit)
    mine = next((e for e in ranked[limit:] if e.standing.player_id == viewer), None)
    return Standings(shown, count, mine)


def profile_summary(conn: Connection, player_id: int) -> list[SummaryLine]:
    """/profile: the rank reached and the counted record, once the player has a counted battle."""
    rows = conn.execute(
        "SELECT player_id, rank, wins, losses FROM hoss_rank_progress WHERE player_id = ?", (player_id,)
    ).fetchall()
    found = _standings(rows)
    if not found:
        return []
    mine = found[0]
    params = {"rank": Text(RANK_NAME_KEYS[mine.highest]), "wins": mine.wins, "losses": mine.losses}
    return [SummaryLine("hoss.profile.line", params)]


def server_board(conn: Connection, guild_id: int) -> list[ServerStanding]:
    """The whole board of `/hoss classement`, for `/classement serveur`."""
    return [
        ServerStanding(
            s.player_id,
            Text("hoss.standing.score", {"rank": Text(RANK_NAME_KEYS[s.highest]), "wins": s.wins}),
        )
        for s in _board(conn, guild_id)
    ]


def week_board(conn: Connection, guild_id: int, since: datetime, until: datetime) -> list[ServerStanding]:
    """The week's battles won on the server (ranked and Arena: seat 0 is the player, against the AI or a
    defence deck)."""
    return match_wins(
        conn, "hoss", guild_id, since, until, lambda result: 0 if result.get("status") == "won" else None
    )


STANDINGS = ServerStandings(server_board, week_board)


class HossStandings:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(self, guild_id: int, viewer: int | None = None) -> Standings:
        return await self.db.read(lambda conn: leaderboard(conn, guild_id, viewer))
