"""Dinocard's lines of /cooldowns: each active pack's daily challenges (how many are left today, or when
they come back), on the game's Paris days. No reminder: a pack's challenges are not lost by waiting an
hour, and the daily reward's morning DM already calls the player back to the game."""

from __future__ import annotations

from datetime import timedelta

from engine.dinocard import daily_challenges
from services.community.daily import day_start, paris_day
from services.dinocard.packs import active_packs, daily_left
from services.infra.messages import Text
from services.infra.timers import Timer, TimerQuery, relative
from store.connection import Connection


def timers(conn: Connection, query: TimerQuery) -> list[Timer]:
    today = paris_day(query.now, query.zone)
    tomorrow = day_start(today + timedelta(days=1), query.zone)
    found: list[Timer] = []
    for pack in active_packs(conn, query.player_id):
        label = Text("dinocard.timer.pack", {"name": pack.name})
        key = f"pack:{pack.id}"
        if today < pack.daily_from:
            opens = day_start(pack.daily_from, query.zone)
            found.append(Timer(key, label, Text("dinocard.timer.new", {"when": relative(opens)}), opens))
            continue
        left, total = daily_left(conn, pack, today), daily_challenges(pack.skills)
        if left > 0:
            found.append(Timer(key, label, Text("dinocard.timer.left", {"left": left, "total": total})))
        else:
            status = Text("dinocard.timer.spent", {"total": total, "when": relative(tomorrow)})
            found.append(Timer(key, label, status, tomorrow))
    return found
