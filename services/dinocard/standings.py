"""Dinocard's standings for the platform (`GameSpec.standings`).

`/dino classement` ranks packs of every server; a server's board for `/classement serveur` ranks the
players who launched a battle on the server by their best active pack, in the same order (level, then
XP, then wins). The week's best are the challengers who won the most battles there that week (a defended
pack gains or loses nothing, so only the challenger's wins count)."""

from __future__ import annotations

from datetime import datetime

from services.community.leaderboard.spec import Standing, Standings
from services.infra.messages import Text
from services.shared.standings import match_wins
from store.connection import Connection

PLAYED_HERE = (
    "SELECT s.player_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE m.game = 'dinocard' AND m.guild_id = ? AND s.seat = 0 AND s.player_id IS NOT NULL"
)


def server_board(conn: Connection, guild_id: int) -> list[Standing]:
    rows = conn.execute(
        "SELECT owner_id, level, xp, wins FROM dinocard_packs WHERE status = 'active'"
        f" AND owner_id IN ({PLAYED_HERE})",
        (guild_id,),
    ).fetchall()
    best: dict[int, tuple[int, int, int]] = {}
    for owner, level, xp, wins in rows:
        best[int(owner)] = max(best.get(int(owner), (0, 0, 0)), (int(level), int(xp), int(wins)))
    ordered = sorted(best.items(), key=lambda item: (-item[1][0], -item[1][1], -item[1][2], item[0]))
    return [Standing(owner, Text("dinocard.standing.score", {"level": pack[0]})) for owner, pack in ordered]


def week_board(conn: Connection, guild_id: int, since: datetime, until: datetime) -> list[Standing]:
    return match_wins(
        conn, "dinocard", guild_id, since, until, lambda result: 0 if result.get("winner") == 0 else None
    )


STANDINGS = Standings(server_board, week_board)
