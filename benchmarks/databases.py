"""Which database a benchmark measures: a fresh SQLite file, or a fresh database on a durable PostgreSQL.

`--database sqlite` (the default) gives each run a new file in a temporary folder (WAL,
`synchronous=FULL`: store/db.py's production settings). `--database postgresql` starts a PostgreSQL server
of the benchmark's own (tools/pg_cluster.py) with PostgreSQL's default durability, `fsync=on` and
`synchronous_commit=on`, in a temporary folder on the same disk as SQLite's files, and gives each run a new
database on it; `--database postgresql://user@host:port/name` uses an existing server instead, where the
benchmark creates (and afterwards drops) databases named `bench_*`. Either way the run refuses a server
whose commits are not durable: the figures are meant to be those of production.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

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
