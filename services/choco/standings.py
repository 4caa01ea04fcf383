"""Chocobataille's standings for the platform (`GameSpec.standings`): the server's board of `/choco
classement` (hRP) for `/classement serveur`, and the week's games won between players for the recap."""

from __future__ import annotations

from datetime import datetime

from services.choco.leagues import standings
from services.community.leaderboard.spec import Standing, Standings
from services.infra.messages import Text
from services.shared.standings import match_wins
from store.connection import Connection


def server_board(conn: Connection, guild_id: int) -> list[Standing]:
    return [
        Standing(s.player_id, Text("choco.standing.score", {"score": s.wins - s.absence_forfeits}))
        for s in standings(conn, guild_id)
    ]


def week_board(conn: Connection, guild_id: int, since: datetime, until: datetime) -> list[Standing]:
    """Games between two players (league or friendly) won on the server; practice against the bot is left
    out, as it counts for nothing in the leagues."""
    return match_wins(
        conn, "choco", guild_id, since, until, lambda result: result.get("winner"), humans_only=True
    )


STANDINGS = Standings(server_board, week_board)
