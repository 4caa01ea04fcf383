"""How many guarded, idempotent debits per second the production writer sustains, and what group commit buys.

The workload is the bot's hottest money path: many players clicking at once, each click a guarded debit
plus its ledger row, under a unique idempotency key, through `Database.write` on a real file with
`synchronous=FULL`. It runs the same load with group commit (the default) and with one transaction per
operation (`max_batch=1`), so the README can quote the ratio, and once more from a single task (one click at
a time: the uncontended latency). After each run it checks that nothing was lost or doubled. Each run
prints the share of the machine's CPU time the virtual machine's host took during it (steal,
benchmarks/host.py): this benchmark is bound by one core and the disk, and follows it.

`--database postgresql` runs the same operations on PostgreSQL (benchmarks/databases.py: a server of its
own with `fsync=on`, `synchronous_commit=on`), where the writer batches units as SQLite's does, up to 64
a transaction (store/postgres.py); transactions PostgreSQL refused and ran again are counted as retries.
A third mode spreads the same debits over one wallet per task, as 50 players clicking at once do.
`python -m benchmarks.databases` runs the 50 tasks on one wallet on both engines, side by side.

    python -m benchmarks.debits [--database sqlite|postgresql|URL] [--ops 10000] [--tasks 50] [--runs 3]
        [--baseline-ops 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.databases import Target, load_average, target
from benchmarks.host import CpuTimes, describe_steal, median_steal, steal_share
from core.clock import SystemClock, to_db
from services.infra import ledger
from store.backend import migrate_database, sqlite_path
from store.connection import Connection
from store.db import MAX_BATCH, Database
from store.idempotency import once
from store.postgres import PG_MAX_BATCH, PostgresDatabase

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
    retries: int = 0  # PostgreSQL: transactions refused (serialization failure) and run again
    steal: float | None = None  # the share of the machine's CPU time its host took during the run

    @property
    def ops_per_second(self) -> float:
        return self.ops / self.seconds

    @property
    def ops_per_transaction(self) -> float:
        return self.ops / self.transactions

    def line(self) -> str:
        return (
            f"{self.label:<56} {self.ops:>6} ops  {self.ops_per_second:>8.0f} ops/s  "
            f"p50 {self.p50_ms:6.2f} ms  p99 {self.p99_ms:7.2f} ms  {self.transactions:>6} transactions  "
            f"{self.ops_per_transaction:6.1f} ops/transaction  {self.retries:>6} retries  "
            f"{describe_steal(self.steal)}"
        )


def _debit_unit(key: str, clock: SystemClock, player: int) -> Callable[[Connection], tuple[object, bool]]:
    def unit(conn: Connection) -> tuple[object, bool]:
        now = clock.now()
        return once(conn, key, now, lambda: ledger.debit(conn, now, player, CURRENCY, 1, DEBIT))

    return unit


def _setup(conn: Connection, funds: dict[int, int], now: str) -> None:
    for player, start in funds.items():
        conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?)", (player, now))
        conn.execute(
            "INSERT INTO wallets (player_id, currency, balance) VALUES (?, ?, ?)", (player, CURRENCY, start)
        )
        conn.execute(
            "INSERT INTO ledger (at, player_id, currency, delta, balance_after, reason)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (now, player, CURRENCY, start, start, "bench.grant"),
        )


def _verify(conn: Connection, funds: dict[int, int], succeeded: dict[int, int]) -> None:
    """Nothing lost, nothing doubled: one ledger row and one idempotency row per successful operation."""
    total = sum(succeeded.values())
    debit_rows = conn.execute("SELECT COUNT(*) FROM ledger WHERE reason = 'bench.debit'").fetchone()[0]
    keys, distinct = conn.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM idempotency").fetchone()
    problems = []
    if debit_rows != total:
        problems.append(f"ledger debit rows {debit_rows} != successful operations {total}")
    if not keys == distinct == total:
        problems.append(f"idempotency rows {keys} (distinct {distinct}) != successful operations {total}")
    for player, start in funds.items():
        balance = ledger.balance(conn, player, CURRENCY)
        explained = conn.execute(
            "SELECT SUM(delta) FROM ledger WHERE player_id = ? AND currency = ?", (player, CURRENCY)
        ).fetchone()[0]
        if balance != start - succeeded[player]:
            problems.append(f"player {player}: balance {balance} != start {start} - {succeeded[player]}")
        if explained != balance:
            problems.append(f"player {player}: ledger sum {explained} != balance {balance}")
    if problems:
        raise SystemExit("VERIFICATION FAILED: " + "; ".join(problems[:5]))


async def _open(url: str, max_batch: int) -> Database:
    path = sqlite_path(url)
    db = (
        Database(path, max_batch=max_batch)
        if path is not None
        else PostgresDatabase(url, max_batch=max_batch)
    )
    await db.open()
    try:
        await migrate_database(db)
        if path is not None:
            synchronous = await db.write(lambda conn: conn.execute("PRAGMA synchronous").fetchone()[0])
            assert synchronous == 2, "the benchmark must measure the production setting, synchronous=FULL"
    except BaseException:
        await db.close()
        raise
    return db


async def run_once(
    where: Target, label: str, ops: int, tasks: int, max_batch: int, *, wallets: int = 1
) -> Figures:
    """One run on a fresh database; each wallet holds exactly enough gold, so every operation must succeed.

    Task `t` debits wallet `t % wallets`: one wallet for all (a hot row), or one per task."""
    clock = SystemClock()
    shares = [ops // tasks + (1 if t < ops % tasks else 0) for t in range(tasks)]
    owner = {t: PLAYER + t % wallets for t in range(tasks)}
    funds = {PLAYER + w: sum(n for t, n in enumerate(shares) if t % wallets == w) for w in range(wallets)}
    async with where.fresh() as url:
        db = await _open(url, max_batch)
        try:
            now = to_db(clock.now())
            await db.write(lambda conn: _setup(conn, funds, now))

            latencies: list[float] = []
            succeeded = dict.fromkeys(funds, 0)

            async def worker(task: int, count: int) -> None:
                for i in range(count):
                    unit = _debit_unit(f"bench:{task}:{i}", clock, owner[task])
                    began = time.perf_counter()
                    _, fresh = await db.write(unit)
                    latencies.append(time.perf_counter() - began)
                    succeeded[owner[task]] += fresh

            batches_before, retries_before = db.batches, _retries(db)
            cpu_before = CpuTimes.now()
            began = time.perf_counter()
            await asyncio.gather(*(worker(t, n) for t, n in enumerate(shares)))
            seconds = time.perf_counter() - began
            steal = steal_share(cpu_before, CpuTimes.now())
            transactions = db.batches - batches_before
            retries = _retries(db) - retries_before

            await db.read(lambda conn: _verify(conn, funds, succeeded))
            # Replaying a sample of keys (a double click) must change nothing.
            replays = await asyncio.gather(
                *(db.write(_debit_unit(f"bench:{t}:0", clock, owner[t])) for t in range(tasks))
            )
            if any(fresh for _, fresh in replays):
                raise SystemExit("VERIFICATION FAILED: a replayed key ran again")
            await db.read(lambda conn: _verify(conn, funds, succeeded))
        finally:
            await db.close()

    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    return Figures(
        label,
        sum(succeeded.values()),
        seconds,
        quantiles[49] * 1000,
        quantiles[98] * 1000,
        transactions,
        retries,
        steal,
    )


def _retries(db: Database) -> int:
    return db.retries if isinstance(db, PostgresDatabase) else 0


def _median(label: str, runs: list[Figures]) -> Figures:
    return Figures(
        f"{label} (median)",
        runs[0].ops,
        statistics.median(r.seconds for r in runs),
        statistics.median(r.p50_ms for r in runs),
        statistics.median(r.p99_ms for r in runs),
        round(statistics.median(r.transactions for r in runs)),
        round(statistics.median(r.retries for r in runs)),
        median_steal([r.steal for r in runs]),
    )


# (label, operations, tasks, max_batch, wallets); SQLite's group commit is its single writer's own.
Mode = tuple[str, int, int, int, int]


def modes(engine: str, ops: int, tasks: int, baseline_ops: int) -> list[Mode]:
    if engine == "sqlite":
        return [
            ("group commit", ops, tasks, MAX_BATCH, 1),
            ("one transaction per op", baseline_ops, tasks, 1, 1),
            ("single task, sequential", baseline_ops, 1, MAX_BATCH, 1),
        ]
    return [
        ("group commit", ops, tasks, PG_MAX_BATCH, 1),
        ("group commit, a wallet per task", ops, tasks, PG_MAX_BATCH, tasks),
        ("one transaction per op", baseline_ops, tasks, 1, 1),
        ("single task, sequential", baseline_ops, 1, 1, 1),
    ]


async def main(spec: str, ops: int, tasks: int, runs: int, baseline_ops: int) -> None:
    with target(spec) as where:
        print(f"guarded 1-gold debit + ledger row + idempotency key per operation; {where.description}")
        print(f"load average at start: {load_average()}")
        medians: dict[str, Figures] = {}
        for label, count, concurrency, max_batch, wallets in modes(where.engine, ops, tasks, baseline_ops):
            name = f"{label}, {concurrency} task{'s' if concurrency > 1 else ''}"
            results = []
            for run in range(1, runs + 1):
                figures = await run_once(
                    where, f"{name} #{run}", count, concurrency, max_batch, wallets=wallets
                )
                print(figures.line(), flush=True)
                results.append(figures)
            medians[label] = _median(name, results)
    print()
    for figures in medians.values():
        print(figures.line())
    if "group commit" in medians:
        grouped, single = medians["group commit"], medians["one transaction per op"]
        ratio = grouped.ops_per_second / single.ops_per_second
        print(f"group commit: {ratio:.1f}x the throughput of one transaction per op")
    print(f"load average at end: {load_average()}")
    print("verification: ledger rows == successful ops, idempotency keys unique, balance == start - ops: OK")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (default), postgresql (a durable server of its own) or a URL",
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
    asyncio.run(main(args.database, args.ops, args.tasks, args.runs, args.baseline_ops))
