"""What the games share to declare their standings (`GameSpec.standings`, services/community/leaderboard/
spec.py): the week's wins counted from the shared `matches` table, for games that keep their results
there, and the line every game's week shows (« 3 victoires »)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

from core.clock import to_db
from services.community.leaderboard.spec import Standing
from services.infra.erased import is_erased
from services.infra.messages import Text
from store.connection import Connection

# The seat a finished match's result names as its winner (None: nobody, a draw or the AI).
WinnerSeat = Callable[[dict[str, Any]], int | None]


def wins_line(wins: int) -> Text:
    return Text("standings.week.wins", {"wins": wins})


def ranked_wins(wins: Counter[int]) -> list[Standing]:
    """Most wins first, then the smaller id (a fixed order); erased players are left out."""
    ordered = sorted(
        (item for item in wins.items() if not is_erased(item[0])), key=lambda item: (-item[1], item[0])
    )
    return [Standing(player, wins_line(count)) for player, count in ordered]


def match_wins(
    conn: Connection,
    game: str,
    guild_id: int,
    since: datetime,
    until: datetime,
    winner: WinnerSeat,
    *,
    humans_only: bool = False,
) -> list[Standing]:
    """The players' wins in the game's matches that ended on the server in [since, until); with
    `humans_only`, only matches whose two seats are players (no AI)."""
    rows = conn.execute(
        "SELECT m.id, m.result, s.seat, s.player_id FROM matches m JOIN match_seats s ON s.match_id = m.id"
        " WHERE m.game = ? AND m.guild_id = ? AND m.status = 'over' AND m.ended_at >= ? AND m.ended_at < ?",
        (game, guild_id, to_db(since), to_db(until)),
    ).fetchall()
    seats: dict[int, dict[int, int | None]] = {}
    results: dict[int, Any] = {}
    for match_id, result, seat, player in rows:
        seats.setdefault(int(match_id), {})[int(seat)] = None if player is None else int(player)
        results[int(match_id)] = result
    wins: Counter[int] = Counter()
    for match_id, seated in seats.items():
        if humans_only and any(player is None for player in seated.values()):
            continue
        raw = results[match_id]
        result = json.loads(raw) if isinstance(raw, str) else None
        seat = winner(result) if isinstance(result, dict) else None
        player = seated.get(seat) if seat is not None else None
        if player is not None:
            wins[player] += 1
    return ranked_wins(wins)
