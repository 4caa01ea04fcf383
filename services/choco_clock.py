"""The deadline jobs of Chocobataille games: what happens when a player does not answer (V.2).

`choco_deadlines.py` keeps the clock (deadlines in the game row, one job for the next stage, reminders);
this module is what those jobs do when they fire, in the scheduler's write unit: the D penalty, the 3 D
pass (and the disqualification), the preparatory turn's late placement, the reminders, and the downtime
given back at start-up. A job acts only if it is still the game's current one (`is_current`).
"""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime

from core.clock import Clock
from engine.choco.catalog import ChocoCatalog
from engine.choco.penalties import inactivity_24h, inactivity_72h
from engine.choco.state import Prepare
from services import choco_posts as posts
from services.choco_deadlines import (
    DEADLINE_JOB,
    REMINDER_JOB,
    absence_end,
    forgive_downtime,
    is_current,
    schedule_jobs,
    shift,
)
from services.choco_flow import Flow
from services.choco_game_store import ENGINE, GameRow, load, log, save
from services.messages import Text
from services.scheduler import Job, Scheduler
from store.db import Database


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

    def on_deadline(self, conn: sqlite3.Connection, job: Job, now: datetime) -> None:
        """D without a declaration: destroy a card; 3 D: pass the turn (the second pass disqualifies)."""
        game = load(conn, int(job.payload["game"]))
        if game.status != "live" or not is_current(conn, game.id, job.id):
            return
        if game.state.turn == 0:
            self._prep_timeout(conn, now, game)
            return
        seat = game.state.active
        end = absence_end(conn, game.id, game.seats[seat], now)
        if end is not None:  # an absence covers now: the clock waits for its end
            shift(conn, now, game, end - now)
            return
        if game.stage == 0:
            state, events = inactivity_24h(game.state, seat)
            game = self.flow.advance(
                conn,
                now,
                game,
                state,
                events,
                actor=None,
                kind="penalty_24h",
                data={"seat": seat},
                stage=1,
            )
            schedule_jobs(conn, now, game)
            return
        state, events = inactivity_72h(game.state, seat)
        self.flow.advance(
            conn,
            now,
            game,
            state,
            events,
            actor=None,
            kind="penalty_72h",
            data={"seat": seat},
        )

    def _prep_timeout(self, conn: sqlite3.Connection, now: datetime, game: GameRow) -> None:
        """The preparatory turn has no D penalty; at 3 D the bot places a random wizard of the late
        player's hand on the front line (docs/choco/referee.md)."""
        if game.stage == 0:
            game = save(conn, game, now, stage=1)
            schedule_jobs(conn, now, game)
            return
        state, events = game.state, []
        for seat in ENGINE.current_players(state):
            pick = random.Random(f"{game.seed}:prepare:{seat}")
            wizards = sorted(c.uid for c in state.sides[seat].hand if not c.pure)
            state, more = ENGINE.apply(state, seat, Prepare(card=pick.choice(wizards), line="front"))
            events += more
        self.flow.advance(conn, now, game, state, events, actor=None, kind="prepare_timeout")

    def on_reminder(self, conn: sqlite3.Connection, job: Job, now: datetime) -> None:
        game = load(conn, int(job.payload["game"]))
        if game.status != "live" or not is_current(conn, game.id, job.id):
            return
        if game.deadline_at is None or now >= game.deadline_at:  # fired late (downtime): D already passed
            return
        for seat in game.to_act():
            if absence_end(conn, game.id, game.seats[seat], now) is None:
                posts.remind(conn, now, game, seat, int(job.payload["hours"]))

    async def on_startup(self, last_seen: datetime | None) -> int:
        """Before the scheduler fires anything: forgive the downtime where servers chose it. Returns the
        number of games whose deadlines moved."""
        now = self.clock.now()

        def unit(conn: sqlite3.Connection) -> int:
            moved = forgive_downtime(conn, now, last_seen)
            for game, down in moved:
                hours = round(down.total_seconds() / 3600, 1)
                log(conn, game.id, now, None, "downtime_forgiven", {"seconds": int(down.total_seconds())})
                posts.notice(
                    conn,
                    now,
                    game,
                    Text(
                        "choco.play.downtime_notice", {"hours": hours, "deadline": posts.deadline_text(game)}
                    ),
                )
            return len(moved)

        return await self.db.write(unit)
