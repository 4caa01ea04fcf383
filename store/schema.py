"""What the schema holds, asked the same way of SQLite and PostgreSQL: the tables, their columns and the
foreign keys between them (the privacy export and erasure walk every table, services/community/privacy.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from store.connection import Connection
from store.dialect import dialect


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # as declared on SQLite ("INTEGER", "TEXT"), PostgreSQL's name on it ("bigint", "text")
    primary_key: bool


def tables(conn: Connection) -> list[str]:
    """The application's tables by name (SQLite's internal ones left out)."""
    if dialect(conn) == "postgresql":
        sql = (
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        )
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        sql += " ORDER BY name"
    return [str(row[0]) for row in conn.execute(sql).fetchall()]


def columns(conn: Connection, table: str) -> list[Column]:
    """The table's columns in their order."""
    if dialect(conn) == "postgresql":
        rows = conn.execute(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod),"
            " COALESCE(a.attnum = ANY(i.indkey), false) FROM pg_attribute a"
            " LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary"
            " WHERE a.attrelid = CAST(? AS regclass) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            (table,),
        ).fetchall()
        return [Column(str(r[0]), str(r[1]), bool(r[2])) for r in rows]
    return [Column(str(r[1]), str(r[2]), bool(r[5])) for r in conn.execute(f"PRAGMA table_info({table})")]


def foreign_keys(conn: Connection, table: str) -> dict[str, str]:
    """Each column of the table that references another table -> that table."""
    if dialect(conn) == "postgresql":
        rows = conn.execute(
            "SELECT a.attname, CAST(c.confrelid AS regclass) FROM pg_constraint c"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " WHERE c.contype = 'f' AND c.conrelid = CAST(? AS regclass)",
            (table,),
        ).fetchall()
        return {str(r[0]): str(r[1]) for r in rows}
    return {str(r[3]): str(r[2]) for r in conn.execute(f"PRAGMA foreign_key_list({table})")}
