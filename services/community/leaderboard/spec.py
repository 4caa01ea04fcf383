"""What a game declares for the server's board and the weekly recap (`GameSpec.standings`): its own
ranking of a server's players, and the week's best of them, each line with the game's own measure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from services.infra.messages import Text
from store.connection import Connection


@dataclass(frozen=True)
class Standing:
    player_id: int
    score: Text  # the game's own measure, as its board says it (« 1 040 Elo », « 3 victoires »)


# Every player of the game's own board on a server, best first (connection, server): the ranking
# `/<game> classement` shows, not cut to its first rows.
ServerBoard = Callable[[Connection, int], list[Standing]]
# The best of a week in the game on a server, best first (connection, server, since, until): who won the
# most there in that time, by the game's own results; nobody when nothing was played.
WeekBoard = Callable[[Connection, int, datetime, datetime], list[Standing]]


@dataclass(frozen=True)
class Standings:
    board: ServerBoard
    week: WeekBoard
