"""`/classement serveur`: one board across every game of a server (docs/drops.md, "The server's board").

Each game ranks the server's players its own way (`GameSpec.standings.board`: HOSS by rank reached and
wins, Pillz by Elo, Chocobataille by league points, Immortal's War by combat points, Dinocard by the best
pack's level). Those rankings are turned into places, and places into points: the 1st of a game gets 10,
the 2nd 9, down to 1 for the 10th; below, none. A player's score is the sum over the games. Ties: the
better best place, then the more games placed, then the smaller Discord id (a fixed order).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.infra.erased import is_erased
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database

POINTS = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)  # by place in a game's own ranking
SHOWN = 10


def points_of(place: int) -> int:
    return POINTS[place - 1] if 1 <= place <= len(POINTS) else 0


@dataclass(frozen=True)
class ServerLine:
    place: int
    player_id: int
    points: int
    places: tuple[tuple[str, int], ...]  # (game key, place in its ranking), the games that gave points

    @property
    def order(self) -> tuple[int, int, int, int]:
        best = min((place for _, place in self.places), default=len(POINTS) + 1)
        return (-self.points, best, -len(self.places), self.player_id)


@dataclass(frozen=True)
class ServerBoard:
    lines: tuple[ServerLine, ...]  # the first `SHOWN`
    players: int  # every player with points, before the cut
    viewer: ServerLine | None  # the reader's line when below the cut


def combine(boards: dict[str, list[int]]) -> list[ServerLine]:
    """Each game's ranking (player ids, best first) turned into places and points, summed per player."""
    scored: dict[int, list[tuple[str, int]]] = {}
    for game in sorted(boards):
        for place, player in enumerate(boards[game], start=1):
            if points_of(place) and not is_erased(player):
                scored.setdefault(player, []).append((game, place))
    unsorted = [
        ServerLine(0, player, sum(points_of(place) for _, place in places), tuple(places))
        for player, places in scored.items()
    ]
    ordered = sorted(unsorted, key=lambda line: line.order)
    return [
        ServerLine(n, line.player_id, line.points, line.places) for n, line in enumerate(ordered, start=1)
    ]


class LeaderboardService:
    def __init__(self, db: Database, registry: GameRegistry) -> None:
        self.db = db
        self.registry = registry

    async def server(self, guild_id: int, viewer: int) -> ServerBoard:
        specs = [spec for spec in self.registry.all_games() if spec.standings is not None]

        def unit(conn: Connection) -> list[ServerLine]:
            boards = {}
            for spec in specs:
                assert spec.standings is not None
                boards[spec.key] = [standing.player_id for standing in spec.standings.board(conn, guild_id)]
            return combine(boards)

        lines = await self.db.read(unit, large=True)
        mine = next((line for line in lines[SHOWN:] if line.player_id == viewer), None)
        return ServerBoard(tuple(lines[:SHOWN]), len(lines), mine)
