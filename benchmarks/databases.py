"""Which database a benchmark measures: a fresh SQLite file, or a fresh database on a durable PostgreSQL.

`--database sqlite` (the default) gives each run a new file in a temporary folder (WAL,
`synchronous=FULL`: store/db.py's production settings). `--database postgresql` starts a PostgreSQL server
of the benchmark's own (tools/pg_cluster.py) with PostgreSQL's default durability, `fsync=on` and
`synchronous_commit=on`, in a temporary folder on the same disk as SQLite's files, and gives each run a new
database on it; `--database postgresql://user@host:port/name` uses an existing server instead, where the
benchmark creates (and afterwards drops) databases named `bench_*`. Either way the run refuses a server
whose commits are not durable: the figures are meant to be those of production.

Run as a module, it measures the hot wallet on both engines in the same minutes, SQLite and PostgreSQL
interleaved: 50 tasks making guarded, idempotent 1-gold debits of one wallet (benchmarks/debits.py's
operation), the ledger checked exact after each run, PostgreSQL's refused transactions counted.

    python -m benchmarks.databases [--ops 10000] [--tasks 50] [--runs 3] [--database postgresql|URL]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from store.db import MAX_BATCH
from store.postgres import PG_MAX_BATCH
from tools import pg_cluster

DURABILITY = ("fsync", "synchronous_commit", "full_page_writes")


class Target:
    """Hands out fresh, empty databases (as `DATABASE_URL` values) of one engine."""

    def __init__(self, server: pg_cluster.Server | None) -> None:
        self.server = server
        self._names = itertools.count(1)
        self.description = "SQLite file, WAL, synchronous=FULL"
        if server is not None:
            values = server.settings("server_version", *DURABILITY)
            if any(values[name] != "on" for name in DURABILITY):
                raise SystemExit(f"refusing to measure a PostgreSQL server without durable commits: {values}")
            version = values.pop("server_version")
            self.description = f"PostgreSQL {version}, " + ", ".join(f"{k}={v}" for k, v in values.items())

    @property
    def server_pid(self) -> int | None:
        """The postmaster's process id when the server is ours (its CPU can be read), else None."""
        if not isinstance(self.server, pg_cluster.Cluster):
            return None
        return int((self.server.data / "postmaster.pid").read_text().split()[0])

    @property
    def engine(self) -> str:
        return "sqlite" if self.server is None else "postgresql"

    @asynccontextmanager
    async def fresh(self) -> AsyncIterator[str]:
        """A new empty database's URL, removed afterwards."""
        if self.server is None:
            with tempfile.TemporaryDirectory(prefix="bench-") as folder:
                yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            return
        url = self.server.create_named(f"bench_{os.getpid()}_{next(self._names)}")
        try:
            yield url
        finally:
            self.server.drop(url)


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages: printed beside the figures (a shared machine)."""
    return "/".join(f"{value:.2f}" for value in os.getloadavg())


@contextmanager
def target(spec: str) -> Iterator[Target]:
    """`sqlite`, `postgresql` (a server of our own, stopped at the end) or a `postgresql://` URL."""
    if spec == "sqlite":
        yield Target(None)
    elif spec == "postgresql":
        with pg_cluster.running(durable=True) as cluster:
            yield Target(cluster)
    elif spec.startswith(("postgresql://", "postgres://")):
        yield Target(pg_cluster.Server(spec))
    else:
        raise SystemExit(f"--database must be sqlite, postgresql or a postgresql:// URL, got {spec!r}")


async def hot_wallet(spec: str, ops: int, tasks: int, runs: int) -> None:
    """The figures of record: SQLite's group commit beside PostgreSQL's, run after run."""
    # benchmarks.debits imports this module for its targets: imported here, where both are loaded.
    from benchmarks import debits

    with target("sqlite") as sqlite, target(spec) as postgresql:
        print(f"50 tasks, one wallet; {sqlite.description} | {postgresql.description}")
        print(f"load average at start: {load_average()}")
        results: dict[str, list[debits.Figures]] = {"sqlite": [], "postgresql": []}
        for run in range(1, runs + 1):
            for where, batch in ((sqlite, MAX_BATCH), (postgresql, PG_MAX_BATCH)):
                label = f"{where.engine}, {tasks} tasks, one wallet #{run}"
                figures = await debits.run_once(where, label, ops, tasks, batch)
                print(figures.line(), flush=True)
                results[where.engine].append(figures)
    print()
    medians = {
        engine: debits._median(f"{engine}, {tasks} tasks, one wallet", runs)
        for engine, runs in results.items()
    }
    for figures in medians.values():
        print(figures.line())
    ratio = medians["sqlite"].ops_per_second / medians["postgresql"].ops_per_second
    retried = statistics.median(f.retries for f in results["postgresql"])
    print(f"SQLite / PostgreSQL: {ratio:.1f}x; PostgreSQL transactions retried (median): {retried:g}")
    print(f"load average at end: {load_average()}")
    print("verification: ledger rows == successful ops, idempotency keys unique, balance == start - ops: OK")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgresql", help="postgresql (a server of its own) or a URL")
    parser.add_argument("--ops", type=int, default=10_000, help="debits per run")
    parser.add_argument("--tasks", type=int, default=50, help="concurrent asyncio tasks")
    parser.add_argument(
        "--runs", type=int, default=3, choices=range(1, 100), metavar="N", help="runs per engine"
    )
    return parser.parse_args()


if __name__ == "__main__":
    args = _parse()
    asyncio.run(hot_wallet(args.database, args.ops, args.tasks, args.runs))
