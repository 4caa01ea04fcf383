"""SIGKILL a process running a Pillz tournament at random moments of its rounds, restart it each time from
its last written clock, let a last life finish; then no match was lost or started twice and nothing was
paid twice (docs/tournaments.md, "Crash safety").

The worker (tests/services/community/tournaments/crash_worker.py) registers eight players with a fee, seven of whom
click « Prêt » each round; its clock moves three minutes a turn, so the duels' timeouts, the round's
deadline (the absent player's match), the step that closes each round and opens the next, and the end
with its prizes all run in the lives the test kills.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import sys
from collections import Counter
from pathlib import Path

from tests.services.conftest import check_conservation

WORKER = Path(__file__).with_name("crash_worker.py")
KILLS = 12
SILENCE = 60.0


async def read_line(process: asyncio.subprocess.Process) -> str:
    assert process.stdout is not None
    raw = await asyncio.wait_for(process.stdout.readline(), SILENCE)
    assert raw, "the worker process ended"
    return raw.decode().strip()


async def one_life(
    process: asyncio.subprocess.Process, spec: dict[str, str], kill_after: int | None, rng: random.Random
) -> tuple[str, int]:
    """One life; killed after `kill_after` ticks plus a random instant, or let to finish. Its last word
    and how many turns it made."""
    assert process.stdin is not None
    process.stdin.write(json.dumps(spec).encode() + b"\n")
    await process.stdin.drain()
    ticks, killed, last = 0, False, ""
    while True:
        line = await read_line(process)
        if line.startswith("exit "):
            assert killed or line == "exit 0", f"a life failed: {line}"
            return last, ticks
        last = line
        if line == "tick":
            ticks += 1
        if kill_after is not None and not killed and ticks >= kill_after:
            await asyncio.sleep(rng.uniform(0, 0.05))  # somewhere inside the next turn's units
            process.send_signal(signal.SIGUSR1)  # the worker SIGKILLs its life
            killed = True


async def test_sigkill_during_the_rounds_loses_no_match_and_pays_nothing_twice(tmp_path: Path) -> None:
    rng = random.Random(5)
    spec = {"db": str(tmp_path / "crash.sqlite3"), "clock": str(tmp_path / "clock.txt")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    turns = []
    try:
        for _ in range(KILLS):
            _, made = await one_life(process, spec, rng.randint(0, 12), rng)
            turns.append(made)
        assert (await one_life(process, spec, None, rng))[0] == "done"
        assert process.stdin is not None
        process.stdin.close()
        assert await process.wait() == 0
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGUSR1)
            await asyncio.sleep(0.2)
            process.kill()
            await process.wait()

    conn = sqlite3.connect(spec["db"])
    try:
        check_conservation(conn)
        (status, rounds, pot) = conn.execute("SELECT status, rounds, pot FROM tournaments").fetchone()
        tables = conn.execute(
            "SELECT round, table_no, second_id, match_id, status FROM tournament_tables"
        ).fetchall()
        matches = conn.execute(
            "SELECT id, request_key, status FROM matches WHERE kind = 'tournament'"
        ).fetchall()
        fees = Counter(
            r[0] for r in conn.execute("SELECT player_id FROM ledger WHERE reason = 'tournament.fee'")
        )
        prizes = Counter(
            r[0] for r in conn.execute("SELECT ref FROM ledger WHERE reason = 'tournament.prize'")
        )
        prize_total = conn.execute(
            "SELECT SUM(delta) FROM ledger WHERE reason = 'tournament.prize'"
        ).fetchone()[0]
        jobs = Counter(r[0] for r in conn.execute("SELECT state FROM jobs WHERE kind LIKE 'tournament:%'"))
        places = [r[0] for r in conn.execute("SELECT place FROM tournament_entries ORDER BY place")]
    finally:
        conn.close()

    assert (status, rounds, pot) == ("finished", 3, 0)
    assert len(tables) == 3 * 4
    assert {t[4] for t in tables} == {"decided"}
    assert len({t[3] for t in tables}) == len(tables), "two tables share a match"
    assert len(matches) == len(tables), "a table's match was lost or made twice"
    assert len({key for _, key, _ in matches}) == len(matches)
    assert {m[2] for m in matches} <= {"over", "expired"}, "a match was left waiting or running"
    assert sum(turns) >= 40, turns  # the kills landed all along: registration, three rounds, the end
    assert set(fees.values()) == {1}, "a fee was debited twice"
    assert len(fees) == 8
    assert set(prizes.values()) == {1}, "a prize was paid twice"
    assert len(prizes) == 3
    assert prize_total == 8 * 50
    assert set(jobs) <= {"done", "cancelled"}, jobs
    assert places == list(range(1, 9))
