"""Versioned SQL migrations: numbered files applied in order at start-up, each in its own transaction.

One history serves SQLite and PostgreSQL: `NNNN_name.sql` is written for SQLite and translated for
PostgreSQL (store/pg_schema.py); where the two truly differ, `NNNN_name.postgresql.sql` beside it is what
PostgreSQL runs instead. Each dialect records the checksum of the text it ran.

Each applied migration's checksum (sha256 of the file's text) is kept in `schema_migrations`, so that a
database is refused when an applied file was edited since, or when it comes from a newer version of the
bot: running on a schema the code does not describe would corrupt it quietly (docs/platform.md).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

import aiosqlite

from store.connection import Connection
from store.dialect import dialect
from store.errors import DatabaseUnusable
from store.sqlite_engine import in_thread

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(\.postgresql)?\.sql$")


class SchemaMismatch(DatabaseUnusable):
    """The database's schema is not one these migration files produce."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    postgresql: str | None = None  # the text PostgreSQL runs instead of translating `sql` (see the module)

    @property
    def file_name(self) -> str:
        return f"{self.version:04d}_{self.name}.sql"

    @property
    def checksum(self) -> str:
        # Of the text as read (universal newlines), so a checkout with CRLF line ends gives the same sum.
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()

    def checksum_for(self, dialect: str) -> str:
        """What `dialect` records: SQLite's file, or PostgreSQL's own file when there is one."""
        if dialect == "postgresql" and self.postgresql is not None:
            return hashlib.sha256(self.postgresql.encode("utf-8")).hexdigest()
        return self.checksum


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    overrides: dict[tuple[int, str], str] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise ValueError(f"migration file name must look like 0001_name.sql: {path.name}")
        key, text = (int(match.group(1)), match.group(2)), path.read_text(encoding="utf-8")
        if match.group(3):
            overrides[key] = text
        else:
            found.append(Migration(*key, text))
    for version, name in sorted(overrides.keys() - {(m.version, m.name) for m in found}):
        raise ValueError(f"{version:04d}_{name}.postgresql.sql has no {version:04d}_{name}.sql beside it")
    found = [replace(m, postgresql=overrides.get((m.version, m.name))) for m in found]
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise ValueError(f"migration versions must be 1..N without gaps, got {versions}")
    return found


def current_version(conn: Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,"
        " checksum TEXT)"
    )
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return int(row[0])


def _database_file(conn: Connection) -> str:
    if dialect(conn) == "postgresql":
        return "the database"
    return str(conn.execute("PRAGMA database_list").fetchone()[2]) or "the database"


def _keeps_checksums(conn: Connection) -> bool:
    """Not in a SQLite database created before checksums were kept (PostgreSQL came after them)."""
    if dialect(conn) == "postgresql":
        return True
    return "checksum" in {row[1] for row in conn.execute("PRAGMA table_info(schema_migrations)")}


def verify(conn: Connection, migrations: list[Migration]) -> int:
    """Refuse a newer schema or an edited migration; returns the database's version.

    A migration applied before checksums were kept gets the file's checksum now: what it was then is
    unknowable, and refusing every older database would stop every deployment at once.
    """
    version = current_version(conn)
    known = {m.version: m for m in migrations}
    if version > len(migrations):
        raise SchemaMismatch(
            f"{_database_file(conn)} has schema version {version}, newer than this version of the bot knows "
            f"({len(migrations)}); run the newer bot, or restore a backup made before it ran"
        )
    kept = _keeps_checksums(conn)
    unrecorded: list[Migration] = []
    rows = conn.execute(
        f"SELECT version, name, {'checksum' if kept else 'NULL'} FROM schema_migrations ORDER BY version"
    ).fetchall()
    for applied, name, checksum in rows:
        migration = known.get(applied)
        if migration is None:
            raise SchemaMismatch(f"{_database_file(conn)} records an unknown migration version {applied}")
        if name != migration.name:
            # Two branches numbered their migrations alike: the names tell it even without a checksum.
            raise SchemaMismatch(
                f"{_database_file(conn)} applied {applied:04d}_{name}.sql as migration {applied}, but this bot's "
                f"migration {applied} is {migration.file_name}; restore a backup made before it"
            )
        if checksum is None:
            unrecorded.append(migration)
        elif checksum != (expected := migration.checksum_for(dialect(conn))):
            raise SchemaMismatch(
                f"{_database_file(conn)} was migrated with a different {migration.file_name} than the one in "
                f"store/migrations (sha256 {checksum[:12]}... recorded, {expected[:12]}... in the "
                "file); put the file back as it was and add a new migration instead"
            )
    if unrecorded or not kept:  # only once every check passed: a refused database is left as it was
        conn.execute("BEGIN IMMEDIATE")
        try:
            if not kept:
                conn.execute("ALTER TABLE schema_migrations ADD COLUMN checksum TEXT")
            conn.executemany(
                "UPDATE schema_migrations SET checksum = ? WHERE version = ? AND checksum IS NULL",
                [(m.checksum, m.version) for m in unrecorded],
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return version


def apply_sync(conn: sqlite3.Connection, migrations: list[Migration], target: int | None = None) -> list[int]:
    """Apply pending migrations up to `target`; a failing file leaves the database at the previous version.

    SQLite's own: a file runs as one script (`executescript`); store/pg_schema.py applies PostgreSQL's."""
    applied: list[int] = []
    start = verify(conn, migrations)
    for migration in migrations:
        if migration.version <= start or (target is not None and migration.version > target):
            continue
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            "INSERT INTO schema_migrations (version, name, checksum)"
            f" VALUES ({migration.version}, '{migration.name}', '{migration.checksum}');\n"
            "COMMIT;"
        )
        try:
            conn.executescript(script)
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise RuntimeError(f"migration {migration.file_name} failed: {exc}") from exc
        applied.append(migration.version)
    return applied


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> list[int]:
    migrations = discover()
    applied: list[int] = await in_thread(conn, apply_sync, migrations, target)
    return applied
