"""A match's pending jobs set anew (`match_jobs`: a Chocobataille game's stage and reminders).

Each call to act re-arms the same jobs at new times: the same kinds, the same payloads. Withdrawing them
and scheduling new ones cost a cancel and two inserts per job in the move's write unit (issue 39: 11 of a
Chocobataille turn's statements, 2 now); the jobs still pending are moved instead, in one statement
(`scheduler.move_all`), keeping their ids, so the handlers' check that a firing job is still the match's
(`Matches.is_current`) holds as before. Each move is guarded by the payload text read here (`Move.stored`),
not by the payload written out again.
A job that fired, waits for a retry or is no longer wanted is withdrawn (and replaced) as a withdrawal
and a new job did before; `Matches.disarm` withdraws them all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from services.infra import scheduler as jobs
from store.connection import Connection

Wanted = tuple[str, datetime, Mapping[str, Any]]  # kind, due time, payload


def rearm(conn: Connection, now: datetime, match_id: int, wanted: Sequence[Wanted]) -> None:
    """Leave the match exactly the `wanted` pending jobs (in the caller's unit, no save)."""
    rows = conn.execute(
        "SELECT m.job_id, j.kind, j.payload, j.state FROM match_jobs m JOIN jobs j ON j.id = m.job_id"
        " WHERE m.match_id = ?",
        (match_id,),
    ).fetchall()
    pending = [(int(row[0]), row[1], json.loads(row[2]), row[2]) for row in rows if row[3] == "due"]
    dropped = [int(row[0]) for row in rows if row[3] != "due"]
    moves: list[jobs.Move] = []
    new: list[Wanted] = []
    for kind, due, payload in wanted:
        same = next((p for p in pending if p[1] == kind and p[2] == dict(payload)), None)
        if same is None:
            new.append((kind, due, payload))
        else:
            pending.remove(same)
            moves.append(jobs.Move(same[0], kind, due, payload, stored=same[3]))
    moved = jobs.move_all(conn, now, moves)
    for m in moves:
        if m.job_id not in moved:  # waiting for a retry, or fired meanwhile: replaced
            pending.append((m.job_id, m.kind, m.payload, m.stored))
            new.append((m.kind, m.due, m.payload or {}))
    for kind, due, payload in new:
        job = jobs.schedule(conn, now, kind, due, payload)
        if job is not None:
            conn.execute("INSERT INTO match_jobs (match_id, job_id) VALUES (?, ?)", (match_id, job))
    for job_id, *_ in pending:
        jobs.cancel(conn, job_id)
        dropped.append(job_id)
    if dropped:
        conn.execute(
            f"DELETE FROM match_jobs WHERE match_id = ? AND job_id IN ({', '.join('?' * len(dropped))})",
            (match_id, *dropped),
        )


__all__ = ["Wanted", "rearm"]
