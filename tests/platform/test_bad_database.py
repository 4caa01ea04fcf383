"""A database the bot cannot use stops start-up with one line naming the file and the problem, exit code 2,
before Discord is contacted; and nothing it opened keeps the process alive."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from store.db import Database, DatabaseUnusable, check_location
from tests.platform.bot_process import assert_threads_back_to, database_refusal
from tests.services.conftest import open_database

PLAYERS = 3000  # enough rows for the players table to span many pages


async def _real_database(path: Path) -> None:
    db = await open_database(path)
    try:
        await db.write(
            lambda conn: conn.executemany(
                "INSERT INTO players (id, created_at) VALUES (?, '2026-01-05T12:00:00.000000Z')",
                [(i,) for i in range(1, PLAYERS + 1)],
            )
        )
    finally:
        await db.close()


def _not_a_database(path: Path) -> None:
    path.write_bytes(b"Cartes & Duels, notes of the last tournament\n" * 200)


def _half_truncated(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _damaged_page(path: Path) -> None:
    """One table's page overwritten in the middle of the file: only a read of that table would notice."""
    with closing(sqlite3.connect(path)) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'players'").fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * 64)


def _read_only_file(path: Path) -> None:
    path.chmod(0o444)


def _read_only_folder(path: Path) -> None:
    path.unlink()
    path.parent.chmod(0o555)


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "not-a-database": (_not_a_database, "is not a SQLite database"),
    "half-truncated": (_half_truncated, "is damaged"),
    "damaged-page": (_damaged_page, "is damaged"),
    "read-only-file": (_read_only_file, "is read-only"),
    "read-only-folder": (_read_only_folder, "folder"),
}


@pytest.fixture
async def bad_database(tmp_path: Path, request: pytest.FixtureRequest) -> object:
    folder = tmp_path / "var"
    path = folder / "bot.sqlite3"
    await _real_database(path)
    spoil, expected = CASES[request.param]
    spoil(path)
    yield path, expected
    folder.chmod(0o755)  # let pytest clean up


@pytest.mark.parametrize("bad_database", list(CASES), indirect=True)
def test_the_bot_refuses_it_in_one_line_with_exit_code_2(
    tmp_path: Path, bad_database: tuple[Path, str]
) -> None:
    path, expected = bad_database
    line = database_refusal(tmp_path, path)
    if expected == "folder":
        assert f"the folder {path.parent} is read-only" in line
    else:
        assert f"{path} {expected}" in line


@pytest.mark.parametrize("bad_database", list(CASES), indirect=True)
async def test_opening_it_fails_and_leaves_no_thread_behind(bad_database: tuple[Path, str]) -> None:
    """aiosqlite's connection threads are not daemons: one left open keeps a failed start-up alive forever."""
    path, expected = bad_database
    before = set(threading.enumerate())
    db = Database(path)
    with pytest.raises(DatabaseUnusable, match=expected):
        await db.open()
    await assert_threads_back_to(before)


def test_a_file_without_write_permission_is_refused_even_for_root(tmp_path: Path) -> None:
    """Root may write a 0444 file (the tests run as root here); the bot still honours the owner's mode."""
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"")
    path.chmod(0o444)
    with pytest.raises(DatabaseUnusable, match="is read-only"):
        check_location(path)
    path.chmod(0o644)
    check_location(path)
