"""Chocobataille's lines of /cooldowns: the turn deadlines of the games waiting for the player.

No reminder is declared: the game already DMs the player to act before its deadline (12 h and 1 h by
default, per server: services/choco/deadlines.py), so the platform's reminders would only repeat it.
"""

from __future__ import annotations

from services.choco.game_store import live_games_of
from services.infra.messages import Text
from services.infra.timers import Timer, TimerQuery, relative
from store.connection import Connection


def timers(conn: Connection, query: TimerQuery) -> list[Timer]:
    found: list[Timer] = []
    for game in live_games_of(conn, query.player_id):
        if game.seats.index(query.player_id) not in game.to_act():
            continue
        # after the first penalty (stage 1) the next step is the pass, at 3 D
        due = game.deadline_at if game.stage == 0 else game.pass_at
        if due is None:
            continue
        label = Text("choco.timer.turn.label", {"id": game.id})
        key = "choco.timer.turn.due" if game.stage == 0 else "choco.timer.turn.pass"
        found.append(Timer(f"turn:{game.id}:{game.stage}", label, Text(key, {"when": relative(due)}), due))
    return found
