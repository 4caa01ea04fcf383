"""Every timer a player has (`/cooldowns`) and the DM reminders a player may turn on (`/settings reminders`).

The lines come from the games' declarations (`GameSpec.daily` and `GameSpec.timers`,
services/infra/timers.py), never from an import of a game. A reminder is a scheduler job (stored,
fired once, replayed after downtime) named by (player, game, timer key), so a timer is reminded at most
once however often it is planned. It is planned when the player turns reminders on, every night for
the day ahead (`PLAN_JOB`, 00:05 Paris, a job that exists only while somebody wants reminders), and by a
game when it sets a deadline (`plan`). When the job
fires, the game is asked again: the DM goes out only if the timer still exists with its reminder, has
not ended, and the player still wants reminders and has not closed their DMs. Decisions: docs/daily.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.clock import Clock
from services.community import daily
from services.infra import outbox
from services.infra.games import GameRegistry, GameSpec
from services.infra.messages import MessageSpec, Target, Text
from services.infra.players import ensure_player
from services.infra.recurrence import Daily
from services.infra.scheduler import Job, Scheduler, schedule
from services.infra.timers import Timer, TimerQuery
from store.connection import Connection
from store.db import Database

REMINDER_JOB = "platform:reminder"
PLAN_JOB = "platform:reminders:plan"
PLAN_AT = Daily(0, 5)  # just after the Paris day starts: plans that day's reminders
DAILIES = "platform.daily"  # the source of the one morning reminder of every game's daily (not a game key)


@dataclass(frozen=True)
class Cooldown:
    game: GameSpec
    timer: Timer


@dataclass(frozen=True)
class ReminderSetting:
    enabled: bool
    dms_closed: bool  # DMs to this player failed before: reminders cannot reach them until they open them
    planned: int  # reminders planned by turning them on


def enabled(conn: Connection, player_id: int) -> bool:
    row = conn.execute("SELECT reminders FROM players WHERE id = ?", (player_id,)).fetchone()
    return bool(row and row[0])


def timers_of(conn: Connection, query: TimerQuery, spec: GameSpec) -> list[Timer]:
    """One game's timers for the player: its daily (the platform's), then the game's own."""
    found = [daily.timer(conn, query, spec)] if spec.daily is not None else []
    return found + _own_timers(conn, query, spec)


def _own_timers(conn: Connection, query: TimerQuery, spec: GameSpec) -> list[Timer]:
    return spec.timers(conn, query) if spec.timers is not None else []


def _dailies(conn: Connection, query: TimerQuery, registry: GameRegistry) -> list[Timer]:
    """Every game's daily timer: their reminders share one key per day, so one DM lists them all."""
    return [daily.timer(conn, query, spec) for spec in daily.daily_games(registry)]


def plan(conn: Connection, now: datetime, player_id: int, game: str, timers: list[Timer]) -> int:
    """Schedule the reminders of `timers` (a game's, for this player) in the caller's unit, if the player
    turned reminders on; each (player, game, key) once. Returns how many were new.

    A reminder whose time has passed while its timer still runs is due at once: the nightly pass that
    runs late (after downtime) still reminds the day's daily, and a player who turns reminders on an
    hour before the raffle closes hears of it."""
    if not enabled(conn, player_id):
        return 0
    planned = 0
    for timer in timers:
        if timer.remind is None or timer.remind_at is None or (timer.at is not None and timer.at <= now):
            continue
        payload = {"player": player_id, "game": game, "key": timer.key}
        key = f"{player_id}:{game}:{timer.key}"
        due = max(timer.remind_at, now)
        if schedule(conn, now, REMINDER_JOB, due, payload, period_key=key) is not None:
            planned += 1
    return planned


def reminder_dm(texts: list[Text]) -> MessageSpec:
    return MessageSpec(content=Text.lines([*texts, Text("reminders.footer")]))


class Reminders:
    def __init__(self, db: Database, clock: Clock, registry: GameRegistry, scheduler: Scheduler) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.zone = scheduler.zone
        scheduler.on(REMINDER_JOB, self.on_reminder)
        scheduler.on(PLAN_JOB, self.on_plan)

    def _next_night(self, conn: Connection, now: datetime) -> None:
        """The next nightly pass, once per night (keyed by its Paris date). Not a recurring series: a bot
        where nobody wants reminders runs no job for them."""
        night = PLAN_AT.first_after(now, self.zone)
        schedule(conn, now, PLAN_JOB, night.due, {}, period_key=night.key)

    def _plan_player(self, conn: Connection, now: datetime, player_id: int) -> int:
        query = TimerQuery(player_id, now, self.zone)
        planned = plan(conn, now, player_id, DAILIES, _dailies(conn, query, self.registry))
        return planned + sum(
            plan(conn, now, player_id, g.key, _own_timers(conn, query, g)) for g in self.registry.all_games()
        )

    async def set_enabled(self, player_id: int, on: bool) -> ReminderSetting:
        now = self.clock.now()

        def unit(conn: Connection) -> ReminderSetting:
            ensure_player(conn, player_id, now, self.registry)
            conn.execute("UPDATE players SET reminders = ? WHERE id = ?", (int(on), player_id))
            planned = 0
            if on:
                planned = self._plan_player(conn, now, player_id)
                self._next_night(conn, now)
            closed = conn.execute("SELECT dms_closed FROM players WHERE id = ?", (player_id,)).fetchone()[0]
            return ReminderSetting(on, bool(closed), planned)

        return await self.db.write(unit)

    def on_plan(self, conn: Connection, job: Job, now: datetime) -> None:
        """The nightly pass: the day's reminders of every player who wants them (the daily ready in the
        morning, the raffle before it closes...), whatever happened since they turned them on."""
        players = [int(r[0]) for r in conn.execute("SELECT id FROM players WHERE reminders = 1 ORDER BY id")]
        for player_id in players:
            self._plan_player(conn, now, player_id)
        if players:
            self._next_night(conn, now)

    def on_reminder(self, conn: Connection, job: Job, now: datetime) -> None:
        player_id, source, key = int(job.payload["player"]), str(job.payload["game"]), str(job.payload["key"])
        row = conn.execute("SELECT reminders, dms_closed FROM players WHERE id = ?", (player_id,)).fetchone()
        if row is None or not row[0] or row[1]:
            return  # turned off, or DMs known closed: the outbox would only record a failure
        query = TimerQuery(player_id, now, self.zone)
        if source == DAILIES:
            current = _dailies(conn, query, self.registry)
        else:
            spec = self.registry.get(source)
            current = _own_timers(conn, query, spec) if spec is not None else []
        texts = [
            t.remind
            for t in current
            if t.key == key and t.remind is not None and (t.at is None or t.at > now)
        ]
        if texts and source == DAILIES:
            texts.insert(0, Text("daily.reminder_title"))
        if texts:
            outbox.enqueue(conn, now, Target("dm", player_id, guild_id=None), reminder_dm(texts))

    async def cooldowns(self, player_id: int) -> list[Cooldown]:
        """Every timer of the player, game by game (in the order of the game keys), ready ones first."""
        now = self.clock.now()

        def read(conn: Connection) -> list[Cooldown]:
            query = TimerQuery(player_id, now, self.zone)
            found: list[Cooldown] = []
            for spec in self.registry.all_games():
                timers = timers_of(conn, query, spec)
                timers.sort(key=lambda t: (t.at is not None, t.at or now))
                found.extend(Cooldown(spec, t) for t in timers)
            return found

        return await self.db.read(read)

    async def is_enabled(self, player_id: int) -> bool:
        return await self.db.read(lambda conn: enabled(conn, player_id))
