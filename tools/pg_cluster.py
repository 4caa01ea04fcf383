"""A throwaway PostgreSQL server of our own, for the tests (`TEST_DATABASE=postgresql`) and the benchmarks.

`initdb` into a temporary folder, `pg_ctl start` on a free port of 127.0.0.1, databases made and dropped
by name, `pg_ctl stop` and the folder removed at the end. The binaries come from `PG_BIN`, else Debian's
/usr/lib/postgresql/<version>/bin, else the PATH. PostgreSQL refuses to run as root: as root, the cluster
belongs to the `postgres` user the Debian package creates.

Durability is the caller's choice: the tests run with it off (a test's data dies with the cluster), the
benchmarks with PostgreSQL's defaults (`fsync=on`, `synchronous_commit=on`, `full_page_writes=on`), so
that a commit costs what it costs in production.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

# What the tests give up: a commit returns before its WAL reaches the disk, and nothing is ever synced.
NOT_DURABLE = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"


def binaries() -> Path:
    if folder := os.environ.get("PG_BIN"):
        return Path(folder)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if debian:
        return debian[-1].parent
    found = shutil.which("initdb")
    if found is None:
        raise RuntimeError("PostgreSQL's initdb was not found: install the postgresql package or set PG_BIN")
    return Path(found).resolve().parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A PostgreSQL server we may make and drop databases on, reached at `base_url` (any database of it)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def url(self, name: str) -> str:
        return f"{self.base_url.rsplit('/', 1)[0]}/{name}"

    def create_named(self, name: str, *, template: str = "template0") -> str:
        """A new database `name` copied from `template` (empty by default); returns its URL."""
        with psycopg.connect(self.base_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    def rename(self, url: str, name: str) -> None:
        with psycopg.connect(self.base_url, autocommit=True) as conn:
            conn.execute(f"ALTER DATABASE {url.rsplit('/', 1)[1]} RENAME TO {name}")

    def drop(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.base_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def settings(self, *names: str) -> dict[str, str]:
        """The server's current values of `names` (what a benchmark prints beside its figures)."""
        values: dict[str, str] = {}
        with psycopg.connect(self.base_url, autocommit=True) as conn:
            for name in names:
                row = conn.execute(f"SHOW {name}").fetchone()
                values[name] = "" if row is None else str(row[0])
        return values


class Cluster(Server):
    """A server of our own: `start()` makes and starts it, `stop()` stops it and removes its files."""

    def __init__(self, *, durable: bool = False) -> None:
        # Not under pytest's own temporary folder: as root, that one is closed to the `postgres` user.
        self.folder = Path(tempfile.mkdtemp(prefix="bot-postgresql-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        super().__init__(f"postgresql://bot@127.0.0.1:{self.port}/postgres")
        self.bin = binaries()
        self.durable = durable
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self._as_user, *args], capture_output=True, cwd=self.folder, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{Path(args[0]).name} failed ({done.returncode}): {done.stderr or done.stdout}"
            )

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "bot",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",  # text sorts by code point, as in SQLite
        )
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='{self.folder}'"
            f" -c max_connections=300{'' if self.durable else ' ' + NOT_DURABLE}"
        )
        log = str(self.folder / "log")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l", log, "start")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def running(*, durable: bool) -> Iterator[Cluster]:
    """A started cluster, stopped and removed on the way out whatever happened."""
    cluster = Cluster(durable=durable)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
