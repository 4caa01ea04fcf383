"""What keeps the suite fast must not change what it checks: a copied database is the one a migration from
scratch gives, and the `slow` marker only reorders and filters tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import MigratedCopy, pytest_collection_modifyitems
from tests.services.conftest import open_database


def _schema(path: Path) -> tuple[list[tuple[str, str, str]], list[tuple[int, str, str]]]:
    conn = sqlite3.connect(path)
    try:
        objects = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        applied = conn.execute(
            "SELECT version, name, checksum FROM schema_migrations ORDER BY version"
        ).fetchall()
    finally:
        conn.close()
    return objects, applied


async def test_a_copied_database_is_the_one_a_migration_from_scratch_gives(
    tmp_path: Path, migrated_copy: MigratedCopy
) -> None:
    fresh = await open_database(tmp_path / "fresh.sqlite3")
    await fresh.close()
    copied = await open_database(migrated_copy(tmp_path / "copied.sqlite3"))
    await copied.close()
    objects, applied = _schema(tmp_path / "copied.sqlite3")
    assert (objects, applied) == _schema(tmp_path / "fresh.sqlite3")
    assert applied and objects


def test_slow_tests_are_handed_out_first_in_their_order() -> None:
    def item(name: str, slow: bool) -> SimpleNamespace:
        return SimpleNamespace(name=name, get_closest_marker=lambda marker: object() if slow else None)

    items = [item("a", False), item("b", True), item("c", False), item("d", True)]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [i.name for i in items] == ["b", "d", "a", "c"]


def test_the_slow_marker_is_declared_and_markers_are_checked(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith("slow:") for line in pytestconfig.getini("markers"))
    assert pytestconfig.option.strict_markers
