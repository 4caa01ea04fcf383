"""Which database `DATABASE_URL` names, opened and migrated the same way for both engines.

`sqlite:///var/bot.sqlite3` (a path after the three slashes; four for an absolute path) is the default
and the one-process deployment; `postgresql://user:password@host:port/name` is PostgreSQL
(store/postgres.py). Services never ask which one they got.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from store.db import Database
from store.migrate import discover, migrate
from store.pg_connection import PgConnection
from store.pg_schema import apply
from store.postgres import PostgresDatabase

SCHEMES = ("sqlite", "postgresql", "postgres")


def sqlite_path(url: str) -> Path | None:
    """The file of a `sqlite:///...` URL; None for a PostgreSQL URL. Raises ValueError for anything else."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in SCHEMES:
        raise ValueError(f"must start with sqlite:/// or postgresql://, got {url.split('://')[0]!r}")
    if scheme != "sqlite":
        return None
    if not rest.startswith("/") or rest == "/":
        raise ValueError("a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path")
    return Path(rest[1:])


def database_for(url: str) -> Database:
    """The `Database` for `url`, not yet open."""
    path = sqlite_path(url)
    return Database(path) if path is not None else PostgresDatabase(url)


async def migrate_database(db: Database, target: int | None = None) -> list[int]:
    """Apply the pending migrations on an open database of either engine; returns the versions applied."""
    if isinstance(db, PostgresDatabase):
        migrations = discover()

        def run(conn: PgConnection) -> list[int]:
            return apply(conn, migrations, target)

        return await asyncio.to_thread(db.run_sync, run)
    return await migrate(await db.raw_writer(), target)
