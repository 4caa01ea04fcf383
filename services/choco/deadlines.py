"""The clock of a Chocobataille game: deadlines in the database and in the scheduler, absences, downtime.

The player called to act has D to declare (D = the server's turn deadline, 24 h by default). At D a random
card of their pioche is destroyed; at 3 D (72 h) the turn is passed; the second pass disqualifies (V.2,
engine/choco/penalties.py applies the game effect). Reminders go to the player before D (12 h and 1 h by
default). The game row holds `deadline_at` (D), `pass_at` (3 D) and `stage` (1 once the D penalty is
applied); ONE `choco.deadline` job waits for the next stage, plus the reminders, all recorded as the
match's jobs (`match_jobs`, services/shared/matches.py): a new call to act moves them (or replaces those
that fired), ending a turn cancels them, in the same transaction, and a handler acts only for a job still
recorded there (`is_current`).

A declared absence pauses the clock: the deadlines of the player to act move by its length, and a turn
that starts during an absence starts counting when it ends. Decisions: docs/choco/referee.md.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from core.clock import from_db, to_db
from core.errors import BadInput, NotAllowed
from services.choco.game_store import MATCHES, PRACTICE, GameRow, live_games, save
from services.choco.leagues import guild_choco_settings
from services.infra import guild_settings
from services.infra.heartbeat import PERIOD
from services.shared.match_jobs import Wanted, rearm
from store.connection import Connection

DEADLINE_JOB = "choco:deadline"
# A practice game has no penalties (nobody waits for the player): it is cancelled after this long without
# a declaration (docs/choco/practice.md).
PRACTICE_IDLE = timedelta(days=7)
REMINDER_JOB = "choco:reminder"
PASS_FACTOR = 3  # the pass comes at 3 D: 72 h for the standard 24 h


def turn_length(conn: Connection, guild_id: int) -> timedelta:
    return guild_settings.read(conn, guild_id).turn_deadline


def absence_end(conn: Connection, game: GameRow, player_id: int, at: datetime) -> datetime | None:
    """The end of the player's absence covering `at`, if any (chained absences count as one)."""
    end: datetime | None = None
    point = at
    while True:
        row = conn.execute(
            "SELECT MAX(until) FROM choco_absences WHERE match_id = ? AND player_id = ? AND starts_at <= ?"
            " AND until > ?",
            (game.match_id, player_id, to_db(point), to_db(point)),
        ).fetchone()
        if row[0] is None:
            return end
        end = point = from_db(row[0])


def disarm(conn: Connection, game: GameRow) -> None:
    MATCHES.disarm(conn, game.match_id)


def is_current(conn: Connection, game: GameRow, job_id: int) -> bool:
    return MATCHES.is_current(conn, game.match_id, job_id)


def schedule_jobs(conn: Connection, now: datetime, game: GameRow) -> None:
    """(Re)arm the jobs of the game's current deadlines: the pending ones move (services/shared/match_jobs.py).

    Jobs name the game by its number, as jobs armed before the game moved to the matches did."""
    wanted: list[Wanted] = []
    if game.status == "live" and game.deadline_at is not None and game.pass_at is not None:
        due = game.deadline_at if game.stage == 0 else game.pass_at
        wanted.append((DEADLINE_JOB, due, {"game": game.id}))
        if game.stage == 0 and game.mode != PRACTICE:
            for hours in guild_choco_settings(conn, game.guild_id).reminder_hours:
                when = game.deadline_at - timedelta(hours=hours)
                if when > now:
                    wanted.append((REMINDER_JOB, when, {"game": game.id, "hours": hours}))
    rearm(conn, now, game.match_id, wanted)


def start_clock(conn: Connection, now: datetime, game: GameRow) -> GameRow:
    """A new call to act: D and 3 D from now, or from the end of the absence of the player called."""
    game = save(conn, game, now, **clock_changes(conn, now, game))
    schedule_jobs(conn, now, game)
    return game


def clock_changes(conn: Connection, now: datetime, game: GameRow) -> dict[str, Any]:
    """`start_clock`'s new deadlines for `game` as it stands (saved or not): a move that calls the next
    player saves them with its own state, in one save (`flow.advance`), then arms `schedule_jobs`."""
    start = now
    if game.status == "live" and game.state.turn > 0:
        player = game.player(game.state.active)
        end = absence_end(conn, game, player, now)
        if end is not None:
            start = end
    if game.mode == PRACTICE:  # one stage: at its end the idle game is cancelled
        return {
            "turn_started_at": start,
            "deadline_at": start + PRACTICE_IDLE,
            "pass_at": start + PRACTICE_IDLE,
            "stage": 0,
        }
    length = turn_length(conn, game.guild_id)
    return {
        "turn_started_at": start,
        "deadline_at": start + length,
        "pass_at": start + PASS_FACTOR * length,
        "stage": 0,
    }


def shift(conn: Connection, now: datetime, game: GameRow, delta: timedelta) -> GameRow:
    """Move the pending deadlines by `delta` (an absence, a referee's extension, forgiven downtime)."""
    if game.deadline_at is None or game.pass_at is None:
        return game
    game = save(conn, game, now, deadline_at=game.deadline_at + delta, pass_at=game.pass_at + delta)
    schedule_jobs(conn, now, game)
    return game


def declare_absence(
    conn: Connection, now: datetime, game: GameRow, player_id: int, hours: int, reason: str
) -> tuple[GameRow, datetime, int]:
    """Record an absence (capped per player and game); if the player is the one called, pause their clock.

    Returns the game, the end of the absence and the hours of allowance left."""
    cap = guild_choco_settings(conn, game.guild_id).absence_cap_hours
    used = int(
        conn.execute(
            "SELECT COALESCE(SUM(hours), 0) FROM choco_absences WHERE match_id = ? AND player_id = ?",
            (game.match_id, player_id),
        ).fetchone()[0]
    )
    if hours <= 0:
        raise BadInput("choco.error.absence_hours")
    if used + hours > cap:
        raise NotAllowed("choco.error.absence_cap", cap=cap, left=max(cap - used, 0))
    until = now + timedelta(hours=hours)
    conn.execute(
        "INSERT INTO choco_absences (match_id, player_id, starts_at, until, hours, reason, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game.match_id, player_id, to_db(now), to_db(until), hours, reason, to_db(now)),
    )
    called = [game.seats[s] for s in game.to_act()]
    if player_id in called and game.state.turn > 0:
        game = shift(conn, now, game, timedelta(hours=hours))
    return game, until, cap - used - hours


def forgive_downtime(
    conn: Connection, now: datetime, last_seen: datetime | None
) -> list[tuple[GameRow, timedelta]]:
    """At start-up, before any deadline fires: the servers that chose it give their live games the time
    the bot was down (from the last sign of life to now). Returns the games moved and by how much."""
    if last_seen is None or now <= last_seen:
        return []
    down = now - last_seen
    if down <= 2 * PERIOD:  # a restart, not an outage: the heartbeat runs every minute
        return []
    moved: list[tuple[GameRow, timedelta]] = []
    for game in live_games(conn):
        if not guild_choco_settings(conn, game.guild_id).forgive_downtime:
            continue
        if game.deadline_at is None:
            continue
        moved.append((shift(conn, now, game, down), down))
    return moved
