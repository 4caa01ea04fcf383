"""Durable jobs: deadlines and recurring rewards that survive restarts and fire exactly once.

A job is a row with an absolute UTC due time. Firing it is one write unit that claims the row
(`UPDATE jobs SET state = 'done' WHERE id = ? AND state = 'due'`, checked by row count) and runs the
handler on the same connection, so the claim and the handler's effects commit together or not at all:
a crash, a concurrent runner or a second process can neither lose a firing nor repeat one.

Catch-up policy: on start-up everything that fell due while the bot was down fires. For a recurring
kind this means every missed period, in order, each once: the occurrence already stored fires, which
inserts the next period's row in the same unit; if that one is also past it fires in the next round,
and so on up to now. Rows are keyed by (kind, period), so a rerun never pays a period twice.

Failures: when a handler raises, its effects and the claim are rolled back together and the failure is
recorded in the same unit (attempts + 1, last error, due time pushed back by 1 min, 2, 4, 8); the fifth
failure marks the job 'failed' and logs an error. A failed recurring occurrence still schedules the
next period, so one bad day does not end the series.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Literal
from zoneinfo import ZoneInfo

from core.clock import Clock, from_db, to_db
from services.infra.recurrence import Daily, Hourly, Occurrence, Recurrence, Weekly
from store.connection import Connection
from store.db import Database, announce, skip_locked

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
RETRY_BASE = timedelta(minutes=1)
RETRY_CAP = timedelta(hours=1)
ERROR_PAUSE = timedelta(seconds=30)  # after a pass that failed as a whole (database trouble)
BATCH = 100
ERROR_TEXT_MAX = 2000
TOPIC = "jobs"  # what `schedule` announces to the commit, keyed by the job's due time (store.db.announce)

__all__ = [
    "MAX_ATTEMPTS",
    "Daily",
    "Hourly",
    "Job",
    "JobHandler",
    "Move",
    "Scheduler",
    "Weekly",
    "cancel",
    "move",
    "move_all",
    "schedule",
]


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    due_at: datetime
    payload: dict[str, Any]
    period_key: str | None
    attempts: int  # failed attempts so far


JobHandler = Callable[[Connection, Job, datetime], None]


def _aware(when: datetime) -> datetime:
    if when.tzinfo is None:
        raise ValueError("job times must be timezone-aware")
    return when


def schedule(
    conn: Connection,
    now: datetime,
    kind: str,
    due: datetime,
    payload: Mapping[str, Any] | None,
    *,
    period_key: str | None = None,
) -> int | None:
    """Store a job in the caller's write unit, so it exists iff the caller's change committed.

    Returns the job id, or None when (kind, period_key) already exists. The commit tells the dispatchers
    (of every process) the job's due time, and one wakes only if it is sooner than what it sleeps for
    (`Scheduler._scheduled`); a commit that scheduled nothing wakes none.
    """
    row = conn.execute(
        "INSERT INTO jobs (kind, due_at, payload, period_key, created_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, period_key) DO NOTHING RETURNING id",
        (kind, to_db(_aware(due)), _payload_text(payload), period_key, to_db(now)),
    ).fetchone()
    if row is None:
        return None
    announce(conn, TOPIC, to_db(due))
    return int(row[0])


def move(
    conn: Connection, now: datetime, job_id: int, kind: str, due: datetime, payload: Mapping[str, Any] | None
) -> bool:
    """Give a pending job a new due time in the caller's write unit: what cancelling it and scheduling the
    same job again would do, in one guarded statement instead of a withdrawn row and a new one (its
    `created_at` becomes now, when it was armed again, as the new row's would).

    False (nothing changed: the caller schedules a new job) when the job fired, failed, was cancelled, is
    waiting for a retry (its attempts would make it due at once) or is not this kind and payload. A job
    being fired meanwhile is not moved: its claim and this update exclude each other, on SQLite by the one
    writer, on PostgreSQL by the row's lock (the claim's due time and state are checked again after it).
    Announced like `schedule`, so a dispatcher sleeping past the new time wakes.
    """
    return job_id in move_all(conn, now, [Move(job_id, kind, due, payload)])


@dataclass(frozen=True)
class Move:
    """A pending job (`job_id`, which must still be this kind and payload) to fall due at `due`.

    `stored` is the payload's text as the caller read it from the job's row in this unit (and found equal
    to `payload`): the guard compares the row with it as read, instead of writing `payload` out again."""

    job_id: int
    kind: str
    due: datetime
    payload: Mapping[str, Any] | None
    stored: str | None = None


def move_all(conn: Connection, now: datetime, moves: Sequence[Move]) -> set[int]:
    """`move` for several jobs in one statement (a game's deadline and its reminders); returns the ids
    moved, the others unchanged for the caller to replace."""
    if not moves:
        return set()
    cases = " ".join("WHEN ? THEN ?" for _ in moves)
    guards = " OR ".join("(id = ? AND kind = ? AND payload = ?)" for _ in moves)
    rows = conn.execute(
        f"UPDATE jobs SET due_at = CASE id {cases} END, created_at = ?"
        f" WHERE state = 'due' AND attempts = 0 AND ({guards}) RETURNING id",
        (
            *(value for m in moves for value in (m.job_id, to_db(_aware(m.due)))),
            to_db(now),
            *(value for m in moves for value in (m.job_id, m.kind, _guard_text(m))),
        ),
    ).fetchall()
    moved = {int(row[0]) for row in rows}
    for m in moves:
        if m.job_id in moved:
            announce(conn, TOPIC, to_db(m.due))
    return moved


def _payload_text(payload: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(payload or {}), sort_keys=True)


def _guard_text(m: Move) -> str:
    return m.stored if m.stored is not None else _payload_text(m.payload)


def cancel(conn: Connection, job_id: int) -> bool:
    """Withdraw a job that has not fired; False when it already fired, failed or was cancelled."""
    cursor = conn.execute("UPDATE jobs SET state = 'cancelled' WHERE id = ? AND state = 'due'", (job_id,))
    return cursor.rowcount == 1


def _job(row: sqlite3.Row) -> Job:
    return Job(
        id=int(row["id"]),
        kind=row["kind"],
        due_at=from_db(row["due_at"]),
        payload=json.loads(row["payload"]),
        period_key=row["period_key"],
        attempts=int(row["attempts"]),
    )


def _in(kinds: list[str]) -> str:
    return ", ".join("?" * len(kinds))


# A retry time is written as now + back-off, so it is never more than RETRY_CAP ahead of the clock that wrote
# it. One further ahead means the clock was set back since: the job is due now, instead of stalling for as
# long as the jump (deadlines themselves are absolute times and keep waiting for theirs).
_IS_DUE = "(due_at <= ? OR (attempts > 0 AND due_at > ?))"


def _due_bounds(now: datetime) -> tuple[str, str]:
    return to_db(now), to_db(now + RETRY_CAP)


def _due_jobs(conn: Connection, kinds: list[str], now: datetime, limit: int) -> list[Job]:
    rows = conn.execute(
        "SELECT id, kind, due_at, payload, period_key, attempts FROM jobs"
        f" WHERE state = 'due' AND {_IS_DUE} AND kind IN ({_in(kinds)}) ORDER BY due_at, id LIMIT ?",
        (*_due_bounds(now), *kinds, limit),
    ).fetchall()
    return [_job(row) for row in rows]


def retry_delay(attempts: int) -> timedelta:
    """Back-off after the `attempts`-th failure: 1 min, 2, 4, 8... capped at an hour."""
    return min(RETRY_BASE * (1 << min(max(attempts - 1, 0), 16)), RETRY_CAP)


@dataclass(frozen=True)
class _Outcome:
    kind: Literal["fired", "taken", "retry", "failed"]
    job: Job
    attempts: int = 0
    error: str | None = None
    retry_at: datetime | None = None


def _record_failure(conn: Connection, job: Job, now: datetime, error: str) -> _Outcome:
    row = conn.execute("SELECT attempts FROM jobs WHERE id = ? AND state = 'due'", (job.id,)).fetchone()
    if row is None:
        return _Outcome("taken", job)
    attempts = int(row[0]) + 1
    if attempts >= MAX_ATTEMPTS:
        conn.execute(
            "UPDATE jobs SET state = 'failed', attempts = ?, last_error = ? WHERE id = ?",
            (attempts, error, job.id),
        )
        return _Outcome("failed", job, attempts, error)
    retry_at = now + retry_delay(attempts)
    conn.execute(
        "UPDATE jobs SET attempts = ?, last_error = ?, due_at = ? WHERE id = ?",
        (attempts, error, to_db(retry_at), job.id),
    )
    return _Outcome("retry", job, attempts, error, retry_at)


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:ERROR_TEXT_MAX]


class Scheduler:
    """Runs durable jobs through the injected clock; one dispatcher task sleeps until the earliest due job."""

    def __init__(self, db: Database, clock: Clock, zone: ZoneInfo) -> None:
        self.db = db
        self.clock = clock
        self.zone = zone
        self.after_fire: list[Callable[[], object]] = []  # called after each committed batch that fired jobs
        self._handlers: dict[str, JobHandler] = {}
        self._recurring: dict[str, Recurrence] = {}
        self._ensured = False
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # The earliest due time the dispatcher read and now sleeps until: a cache of the jobs table, which
        # stays the truth. None while it runs a pass (a job committed meanwhile may be missing from what
        # it reads) or waits with nothing due.
        self._sleeping_until: datetime | None = None
        db.subscribe_keys(TOPIC, self._scheduled)  # a job scheduled by any commit, of any process

    def on(self, kind: str, handler: JobHandler) -> None:
        """Register the handler of a kind. It runs inside the unit that claims the job: it must not await,
        must not call Discord (queue messages in the outbox instead) and raises to roll everything back."""
        if kind in self._handlers:
            raise ValueError(f"job kind {kind!r} already has a handler")
        self._handlers[kind] = handler
        self.wake()  # the kind's stored jobs may be due sooner than what the dispatcher sleeps for

    def recurring(self, kind: str, recurrence: Recurrence, handler: JobHandler) -> None:
        """Fire `handler` once per period of `recurrence`, in the scheduler's zone (hourly follows UTC hours).

        The job handed to the handler carries the period key (e.g. "2026-03-29") to use as a ledger ref.
        Periods missed while the bot was down all fire on start-up, oldest first, each once.
        """
        self.on(kind, handler)
        self._recurring[kind] = recurrence
        self._ensured = False

    async def add(
        self,
        kind: str,
        due: datetime,
        payload: Mapping[str, Any] | None = None,
        *,
        period_key: str | None = None,
    ) -> int | None:
        """Schedule a job in a unit of its own, for callers that have no write unit to share."""
        now = self.clock.now()
        job_id = await self.db.write(
            lambda conn: schedule(conn, now, kind, due, payload, period_key=period_key)
        )
        return job_id

    def wake(self) -> None:
        """Make the dispatcher re-read the earliest due time (after committing a job that may be sooner)."""
        self._wake.set()

    def _scheduled(self, due: str | None) -> None:
        """A commit stored a job due at `due` (None: unknown jobs, after lost notifications).

        A job due no sooner than the time the dispatcher sleeps until is found by the pass it wakes for
        anyway: waking it now would only cost the two reads of a pass that finds nothing due (issue 39: a
        game's 2-minute move deadline, armed on every move). Anything else wakes it: a sooner job, a pass
        under way, or no due time known.
        """
        known = self._sleeping_until
        if due is None or known is None or from_db(due) < known:
            self.wake()

    async def start(self) -> None:
        """Ensure every recurring series has a next occurrence, fire what fell due while down, then dispatch.

        The start-up catch-up is awaited, so when this returns the missed jobs have fired.
        """
        if self._task is not None:
            raise RuntimeError("scheduler already started")
        fired = await self.run_due()
        if fired:
            log.info("start-up catch-up fired %d job(s)", fired)
        self._task = asyncio.create_task(self._loop(), name="scheduler")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def next_due_at(self) -> datetime | None:
        """The earliest due time among kinds this process can fire (unknown kinds wait for their handler)."""
        kinds = list(self._handlers)
        if not kinds:
            return None

        now, horizon = _due_bounds(self.clock.now())

        def unit(conn: Connection) -> str | None:
            row = conn.execute(
                "SELECT MIN(CASE WHEN attempts > 0 AND due_at > ? THEN ? ELSE due_at END) FROM jobs"
                f" WHERE state = 'due' AND kind IN ({_in(kinds)})",
                (horizon, now, *kinds),
            ).fetchone()
            return row[0] if row else None

        text = await self.db.read(unit)
        return from_db(text) if text else None

    async def run_due(self) -> int:
        """Fire every job due now, and recurring periods that fall due while catching up; returns how many.

        Safe to call concurrently with the dispatcher or with itself: the claim decides who fires.
        """
        await self._ensure_recurring()
        total = 0
        while kinds := list(self._handlers):
            now = self.clock.now()
            jobs = await self.db.read(partial(_due_jobs, kinds=kinds, now=now, limit=BATCH))
            if not jobs:
                break
            if self.db.concurrent_writers:
                # PostgreSQL runs the units of one process side by side: fired together, a later job could
                # commit first (a season's close before its last hourly ranking). One after the other keeps
                # the due order that SQLite's single writer gives.
                outcomes = [await self._fire(job, now) for job in jobs]
            else:
                # Every unit is queued before the first await returns: one group commit, in due order.
                outcomes = list(await asyncio.gather(*(self._fire(job, now) for job in jobs)))
            fired = sum(1 for outcome in outcomes if outcome is not None and outcome.kind == "fired")
            total += fired
            if fired:
                self._notify()
            if all(outcome is None for outcome in outcomes):
                break  # nothing moved: the database is failing; the dispatcher will pause and retry
        return total

    async def _ensure_recurring(self) -> None:
        if self._ensured or not self._recurring:
            return
        now = self.clock.now()
        series = dict(self._recurring)

        def unit(conn: Connection) -> None:
            for kind, recurrence in series.items():
                occurrence = recurrence.first_after(now, self.zone)
                schedule(conn, now, kind, occurrence.due, None, period_key=occurrence.key)

        await self.db.write(unit)
        self._ensured = True

    def _next_occurrence(self, job: Job) -> Occurrence | None:
        recurrence = self._recurring.get(job.kind)
        if recurrence is None:
            return None
        if job.period_key is None:
            return recurrence.first_after(job.due_at, self.zone)
        return recurrence.following(job.period_key, self.zone)

    def _fire_unit(self, job: Job, now: datetime) -> Callable[[Connection], _Outcome]:
        handler = self._handlers[job.kind]
        upcoming = self._next_occurrence(job)

        def continue_series(conn: Connection) -> None:
            if upcoming is not None:
                schedule(conn, now, job.kind, upcoming.due, None, period_key=upcoming.key)

        def unit(conn: Connection) -> _Outcome:
            conn.execute("SAVEPOINT job_fire")
            # On PostgreSQL the row is locked by the claim, and a job another process is firing right now
            # is passed over (taken) rather than waited for (store.db.skip_locked); SQLite has one writer.
            claimed = conn.execute(
                "UPDATE jobs SET state = 'done', fired_at = ? WHERE id IN (SELECT id FROM jobs"
                f" WHERE id = ? AND state = 'due' AND {_IS_DUE}{skip_locked(conn)})",
                (to_db(now), job.id, *_due_bounds(now)),
            ).rowcount
            if claimed != 1:
                conn.execute("RELEASE job_fire")
                return _Outcome("taken", job)
            try:
                handler(conn, job, now)
            except Exception as exc:
                # Undo the handler's effects and the claim together; the job stays 'due' for its retry.
                conn.execute("ROLLBACK TO job_fire")
                conn.execute("RELEASE job_fire")
                outcome = _record_failure(conn, job, now, _error_text(exc))
                if outcome.kind == "failed":
                    continue_series(conn)
                return outcome
            conn.execute("RELEASE job_fire")
            continue_series(conn)
            return _Outcome("fired", job)

        return unit

    async def _fire(self, job: Job, now: datetime) -> _Outcome | None:
        try:
            outcome = await self.db.write(self._fire_unit(job, now))
        except Exception as exc:
            # The whole unit failed (the handler broke the transaction, or the database did): record the
            # failure in a unit of its own, guarded so that concurrent runners count it once.
            log.exception("job %s #%d could not run", job.kind, job.id)
            error = _error_text(exc)
            try:
                outcome = await self.db.write(lambda conn: self._record_failure_once(conn, job, now, error))
            except Exception:
                log.exception("job %s #%d: recording the failure failed too", job.kind, job.id)
                return None
        if outcome.kind == "retry":
            log.warning(
                "job %s #%d failed (attempt %d/%d), retry at %s: %s",
                job.kind,
                job.id,
                outcome.attempts,
                MAX_ATTEMPTS,
                outcome.retry_at,
                outcome.error,
            )
        elif outcome.kind == "failed":
            log.error(
                "job %s #%d failed for good after %d attempts: %s",
                job.kind,
                job.id,
                outcome.attempts,
                outcome.error,
            )
        return outcome

    def _record_failure_once(self, conn: Connection, job: Job, now: datetime, error: str) -> _Outcome:
        row = conn.execute("SELECT attempts FROM jobs WHERE id = ? AND state = 'due'", (job.id,)).fetchone()
        if row is None or int(row[0]) != job.attempts:
            return _Outcome("taken", job)  # another runner already fired it or counted this failure
        outcome = _record_failure(conn, job, now, error)
        if outcome.kind == "failed" and (upcoming := self._next_occurrence(job)) is not None:
            schedule(conn, now, job.kind, upcoming.due, None, period_key=upcoming.key)
        return outcome

    def _notify(self) -> None:
        for callback in list(self.after_fire):
            try:
                callback()
            except Exception:
                log.exception("after_fire callback failed")

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                next_at = await self.next_due_at()
            except Exception:
                log.exception("scheduler pass failed")
                next_at = self.clock.now() + ERROR_PAUSE
            if next_at is None:
                await self._wake.wait()
                continue
            self._sleeping_until = next_at
            try:
                await self.clock.sleep_until(next_at, self._wake)
            finally:
                self._sleeping_until = None
