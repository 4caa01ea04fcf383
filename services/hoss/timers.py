"""HOSS's lines of /cooldowns: the raffle ticket (one a day, in any server) and its reminder, and the
battles waiting for the player's decision (2 minutes, shown in the battle: no reminder).

A player without today's ticket sees when sales close; one who has it sees when the draw frees the next
day's ticket. The reminder, an hour before sales close, goes to a player who bought a ticket in the past
week (a player who never plays the raffle is not called to it every day).
"""

from __future__ import annotations

from datetime import timedelta

from services.hoss.battle.battles import MATCHES
from services.hoss.raffle import has_ticket, sales_day, schedule_of
from services.infra.messages import Text
from services.infra.timers import Timer, TimerQuery, relative
from store.connection import Connection

REMIND_BEFORE = timedelta(hours=1)
RECENT = timedelta(days=7)


def _recent_ticket(conn: Connection, query: TimerQuery) -> bool:
    since = query.now.astimezone(query.zone).date() - RECENT
    row = conn.execute(
        "SELECT 1 FROM hoss_raffle_tickets WHERE player_id = ? AND day >= ? LIMIT 1",
        (query.player_id, since.isoformat()),
    ).fetchone()
    return row is not None


def raffle_timer(conn: Connection, query: TimerQuery) -> Timer:
    day, is_open = sales_day(query.now, query.zone)
    closes, draws = schedule_of(day, query.zone)
    label, key = Text("hoss.raffle.timer.label"), f"raffle:{day.isoformat()}"
    if has_ticket(conn, query.player_id, day):
        return Timer(key, label, Text("hoss.raffle.timer.bought", {"when": relative(draws)}), draws)
    if not is_open:
        return Timer(key, label, Text("hoss.raffle.timer.frozen", {"when": relative(draws)}), draws)
    remind = Text("hoss.raffle.reminder", {"when": relative(closes)}) if _recent_ticket(conn, query) else None
    status = Text("hoss.raffle.timer.open", {"when": relative(closes)})
    return Timer(key, label, status, closes, closes - REMIND_BEFORE, remind)


def battle_timers(conn: Connection, query: TimerQuery) -> list[Timer]:
    found: list[Timer] = []
    for match in MATCHES.live_of(conn, query.player_id):
        due = match.deadline_at
        if due is None or match.number is None:
            continue
        label = Text("hoss.timer.battle", {"battle": match.number})
        status = Text("hoss.timer.decision", {"when": relative(due)})
        found.append(Timer(f"battle:{match.number}:{int(due.timestamp())}", label, status, due))
    return found


def timers(conn: Connection, query: TimerQuery) -> list[Timer]:
    return [raffle_timer(conn, query), *battle_timers(conn, query)]
