"""The deadline jobs of Chocobataille games: what happens when a player does not answer (V.2).

`choco_deadlines.py` keeps the clock (deadlines in the game row, one job for the next stage, reminders);
this module is what those jobs do when they fire, in the scheduler's write unit: the D penalty, the 3 D
pass (and the disqualification), in the preparatory turn too (each late player's placement forced at
3 D), the reminders, and the downtime given back at start-up. A job acts only if it is still the
game's current one (`is_current`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from core.clock import Clock
from core.i18n import format_decimal
from core.settings import SUPPORTED_LOCALES
from engine.choco import ChocoCatalog, ChocoState, inactivity_24h, inactivity_72h
from engine.protocol import Event
from services.choco import posts
from services.choco.deadlines import (
    DEADLINE_JOB,
    REMINDER_JOB,
    absence_end,
    disarm,
    forgive_downtime,
    is_current,
    schedule_jobs,
    shift,
)
from services.choco.flow import Flow, public_events
from services.choco.game_store import PRACTICE, GameRow, load, log, save
from services.choco.render import board as render
from services.infra.messages import Text
from services.infra.scheduler import Job, Scheduler
from store.connection import Connection
from store.db import Database

Penalty = Callable[[ChocoState, int], tuple[ChocoState, list[Event]]]


class ChocoClock:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: ChocoCatalog,
        rng: random.Random,
        scheduler: Scheduler | None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.flow = Flow(catalog, rng)
        self.scheduler = scheduler
        if scheduler is not None:
            scheduler.on(DEADLINE_JOB, self.on_deadline)
            scheduler.on(REMINDER_JOB, self.on_reminder)

    def on_deadline(self, conn: Connection, job: Job, now: datetime) -> None:
        """D without a declaration: destroy a card; 3 D: pass the turn (the second pass disqualifies). The
        preparatory turn is a turn (IV.1), so each player it still waits for gets the same ladder."""
        game = load(conn, int(job.payload["game"]))
        if game.status != "live" or not is_current(conn, game, job.id):
            return
        if game.mode == PRACTICE:
            self._cancel_idle(conn, now, game)
            return
        late = game.to_act()
        ends = [e for s in late if (e := absence_end(conn, game, game.player(s), now)) is not None]
        if ends:  # an absence covers now: the clock waits for its end
            shift(conn, now, game, max(ends) - now)
            return
        if game.stage == 0:
            game = self._penalize(conn, now, game, late, inactivity_24h, "penalty_24h", stage=1)
            schedule_jobs(conn, now, game)
            return
        self._penalize(conn, now, game, late, inactivity_72h, "penalty_72h")

    def _cancel_idle(self, conn: Connection, now: datetime, game: GameRow) -> None:
        """A practice game left without a declaration for PRACTICE_IDLE: cancelled, nothing counted."""
        disarm(conn, game)
        game = save(conn, game, now, status="cancelled", result="cancelled", deadline_at=None, pass_at=None)
        log(conn, game, now, None, "practice_idle", {})
        text = Text("choco.practice.cancelled_idle", {"player": f"<@{game.player(0)}>"})
        posts.notice(conn, now, game, text, archive=True)

    def _penalize(
        self,
        conn: Connection,
        now: datetime,
        game: GameRow,
        seats: list[int],
        penalty: Penalty,
        kind: str,
        **changes: Any,
    ) -> GameRow:
        """One log entry per late player (a referee cancels each on its own), one post for all of them:
        the earlier players' lines open the account of the last one's."""
        told: list[Text] = []
        for seat in seats[:-1]:
            before = game.state
            state, events = penalty(before, seat)
            game = save(conn, game, now, state=state)
            log(conn, game, now, None, kind, {"seat": seat, "events": public_events(events)})
            told += render.narrate(events, before, state, self.flow.catalog, posts.names(game))
        seat = seats[-1]
        state, events = penalty(game.state, seat)
        return self.flow.advance(
            conn, now, game, state, events, actor=None, kind=kind, data={"seat": seat}, notes=told, **changes
        )

    def on_reminder(self, conn: Connection, job: Job, now: datetime) -> None:
        game = load(conn, int(job.payload["game"]))
        if game.status != "live" or not is_current(conn, game, job.id):
            return
        if game.deadline_at is None or now >= game.deadline_at:  # fired late (downtime): D already passed
            return
        for seat in game.to_act():
            if absence_end(conn, game, game.player(seat), now) is None:
                posts.remind(conn, now, game, seat, int(job.payload["hours"]))

    async def on_startup(self, last_seen: datetime | None) -> int:
        """Before the scheduler fires anything: forgive the downtime where servers chose it. Returns the
        number of games whose deadlines moved."""
        now = self.clock.now()

        def unit(conn: Connection) -> int:
            moved = forgive_downtime(conn, now, last_seen)
            for game, down in moved:
                hours = round(down.total_seconds() / 3600, 1)
                log(conn, game, now, None, "downtime_forgiven", {"seconds": int(down.total_seconds())})
                posts.notice(
                    conn,
                    now,
                    game,
                    Text(
                        "choco.play.downtime_notice",
                        {
                            "hours": Text.per_locale(
                                {lang: format_decimal(hours, lang) for lang in SUPPORTED_LOCALES}
                            ),
                            "deadline": posts.deadline_text(game),
                        },
                    ),
                )
            return len(moved)

        return await self.db.write(unit)
