"""How many guarded, idempotent debits per second the production writer sustains, and what group commit buys.

The workload is the bot's hottest money path: many players clicking at once, each click a guarded debit
plus its ledger row, under a unique idempotency key, through `Database.write` on a real file with
`synchronous=FULL`. It runs the same load with group commit (the default) and with one transaction per
operation (`max_batch=1`), so the README can quote the ratio, and once more from a single task (one click at
a time: the uncontended latency). After each run it checks that nothing was lost or doubled.

    python -m benchmarks.debits [--ops 10000] [--tasks 50] [--runs 3] [--baseline-ops 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from core.clock import SystemClock, to_db
from services.platform import ledger
from store.db import MAX_BATCH, Database
from store.idempotency import once
from store.migrate import migrate

PLAYER = 1
CURRENCY = "gold"
DEBIT = ledger.Movement("bench.debit")


@dataclass(frozen=True)
class Figures:
    label: str
    ops: int
    seconds: float
    p50_ms: float
    p99_ms: float
    transactions: int

    @property
    def ops_per_second(self) -> float:
        return self.ops / self.seconds

    @property
    def ops_per_transaction(self) -> float:
        return self.ops / self.transactions

    def line(self) -> str:
        return (
            f"{self.label:<42} {self.ops:>6} ops  {self.ops_per_second:>8.0f} ops/s  "
            f"p50 {self.p50_ms:6.2f} ms  p99 {self.p99_ms:7.2f} ms  {self.transactions:>6} transactions  "
            f"{self.ops_per_transaction:6.1f} ops/transaction"
        )


def _debit_unit(key: str, clock: SystemClock):
    def unit(conn: sqlite3.Connection) -> tuple[object, bool]:
        now = clock.now()
        return once(conn, key, now, lambda: ledger.debit(conn, now, PLAYER, CURRENCY, 1, DEBIT))

    return unit


def _setup(conn: sqlite3.Connection, start: int, now: str) -> None:
    conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (PLAYER, now))
    conn.execute(
        "INSERT INTO wallets (player_id, currency, balance) VALUES (?, ?, ?)", (PLAYER, CURRENCY, start)
    )
    conn.execute(
        "INSERT INTO ledger (at, player_id, currency, delta, balance_after, reason)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (now, PLAYER, CURRENCY, start, start, "bench.grant"),
    )


def _verify(conn: sqlite3.Connection, start: int, succeeded: int) -> None:
    """Nothing lost, nothing doubled: one ledger row and one idempotency row per successful operation."""
    debit_rows = conn.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'bench.debit'").fetchone()[0]
    keys, distinct = conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM idempotency").fetchone()
    balance = ledger.balance(conn, PLAYER, CURRENCY)
    explained = conn.execute(
        "SELECT SUM(delta) FROM ledger WHERE player_id = ? AND currency = ?", (PLAYER, CURRENCY)
    ).fetchone()[0]
    problems = []
    if debit_rows != succeeded:
        problems.append(f"ledger debit rows {debit_rows} != successful operations {succeeded}")
    if not keys == distinct == succeeded:
        problems.append(f"idempotency rows {keys} (distinct {distinct}) != successful operations {succeeded}")
    if balance != start - succeeded:
        problems.append(f"balance {balance} != start {start} - operations {succeeded}")
    if explained != balance:
        problems.append(f"ledger sum {explained} != balance {balance}")
    if problems:
        raise SystemExit("VERIFICATION FAILED: " + "; ".join(problems))


async def run_once(label: str, ops: int, tasks: int, max_batch: int) -> Figures:
    """One run on a fresh file; the wallet holds exactly enough gold, so every operation must succeed."""
    clock = SystemClock()
    with tempfile.TemporaryDirectory(prefix="bench-debits-") as directory:
        db = Database(Path(directory) / "bench.sqlite3", max_batch=max_batch)
        await db.open()
        try:
            await migrate(await db.raw_writer())
            synchronous = await db.write(lambda conn: conn.execute("PRAGMA synchronous").fetchone()[0])
            assert synchronous == 2, "the benchmark must measure the production setting, synchronous=FULL"
            start = ops
            now = to_db(clock.now())
            await db.write(lambda conn: _setup(conn, start, now))

            latencies: list[float] = []
            succeeded = 0

            async def worker(task: int, count: int) -> None:
                nonlocal succeeded
                for i in range(count):
                    unit = _debit_unit(f"bench:{task}:{i}", clock)
                    began = time.perf_counter()
                    _, fresh = await db.write(unit)
                    latencies.append(time.perf_counter() - began)
                    succeeded += fresh

            shares = [ops // tasks + (1 if t < ops % tasks else 0) for t in range(tasks)]
            batches_before = db.batches
            began = time.perf_counter()
            await asyncio.gather(*(worker(t, n) for t, n in enumerate(shares)))
            seconds = time.perf_counter() - began
            transactions = db.batches - batches_before

            await db.read(lambda conn: _verify(conn, start, succeeded))
            # Replaying a sample of keys (a double click) must change nothing.
            replays = await asyncio.gather(
                *(db.write(_debit_unit(f"bench:{t}:0", clock)) for t in range(tasks))
            )
            if any(fresh for _, fresh in replays):
                raise SystemExit("VERIFICATION FAILED: a replayed key ran again")
            await db.read(lambda conn: _verify(conn, start, succeeded))
        finally:
            await db.close()

    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    return Figures(label, succeeded, seconds, quantiles[49] * 1000, quantiles[98] * 1000, transactions)


def _median(label: str, runs: list[Figures]) -> Figures:
    return Figures(
        f"{label} (median)",
        runs[0].ops,
        statistics.median(r.seconds for r in runs),
        statistics.median(r.p50_ms for r in runs),
        statistics.median(r.p99_ms for r in runs),
        round(statistics.median(r.transactions for r in runs)),
    )


async def main(ops: int, tasks: int, runs: int, baseline_ops: int) -> None:
    print("guarded 1-gold debit + ledger row + idempotency key per operation, synchronous=FULL, WAL")
    modes = [
        ("group commit", ops, tasks, MAX_BATCH),
        ("one transaction per op", baseline_ops, tasks, 1),
        ("single task, sequential", baseline_ops, 1, MAX_BATCH),
    ]
    medians: dict[str, Figures] = {}
    for label, count, concurrency, max_batch in modes:
        name = f"{label}, {concurrency} task{'s' if concurrency > 1 else ''}"
        results = []
        for run in range(1, runs + 1):
            figures = await run_once(f"{name} #{run}", count, concurrency, max_batch)
            print(figures.line(), flush=True)
            results.append(figures)
        medians[label] = _median(name, results)
    print()
    for figures in medians.values():
        print(figures.line())
    grouped, single = medians["group commit"], medians["one transaction per op"]
    ratio = grouped.ops_per_second / single.ops_per_second
    print(f"group commit: {ratio:.1f}x the throughput of one transaction per op")
    print("verification: ledger rows == successful ops, idempotency keys unique, balance == start - ops: OK")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ops", type=int, default=10_000, help="operations per group-commit run")
    parser.add_argument("--tasks", type=int, default=50, help="concurrent asyncio tasks")
    parser.add_argument(
        "--runs", type=int, default=3, choices=range(1, 100), metavar="N", help="runs per mode"
    )
    parser.add_argument(
        "--baseline-ops", type=int, default=10_000, help="operations per one-transaction-per-op run"
    )
    return parser.parse_args()


if __name__ == "__main__":
    args = _parse()
    asyncio.run(main(args.ops, args.tasks, args.runs, args.baseline_ops))
