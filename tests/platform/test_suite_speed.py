"""What keeps the suite fast must not change what it checks: a copied database is the one a migration from
scratch gives, the `slow` marker only reorders and filters tests, and the catalogs shared by the bots of
a test process are what loading their files gives, file content by file content."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from services.infra.catalogs import DATA_DIR, CatalogError, load_all
from tests.conftest import MigratedCopy, pytest_collection_modifyitems
from tests.fixtures.catalog_cache import CatalogCache
from tests.fixtures.fixture_game import SPEC as FIXTURE_SPEC
from tests.services.conftest import open_database
from tests.support.registries import every_game

FIXTURE_CATALOG = Path(__file__).resolve().parents[1] / "fixtures" / "catalogs" / "fixture.json"


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
    assert applied
    assert objects


def test_slow_tests_are_handed_out_first_in_their_order(pytestconfig: pytest.Config) -> None:
    def item(name: str, slow: bool) -> SimpleNamespace:
        return SimpleNamespace(name=name, get_closest_marker=lambda marker: object() if slow else None)

    items = [item("a", False), item("b", True), item("c", False), item("d", True)]
    pytest_collection_modifyitems(items, pytestconfig)  # type: ignore[arg-type]
    assert [i.name for i in items] == ["b", "d", "a", "c"]


def test_the_slow_marker_is_declared_and_markers_are_checked(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith("slow:") for line in pytestconfig.getini("markers"))
    assert pytestconfig.option.strict_markers


def test_shared_catalogs_are_what_loading_the_files_gives() -> None:
    cache, specs = CatalogCache(), every_game().all_games()
    first = cache.load_all(DATA_DIR, specs)
    assert first == load_all(DATA_DIR, specs)
    assert first
    second = cache.load_all(DATA_DIR, specs)
    assert second is not first
    assert all(second[game] is first[game] for game in first)
    assert cache.index(second) is cache.index(first)
    assert cache.index(second).get("hoss", first["hoss"].cards[0].id) == first["hoss"].cards[0]


def test_a_catalog_file_is_loaded_again_when_its_content_changes(tmp_path: Path) -> None:
    cache = CatalogCache()
    shutil.copyfile(FIXTURE_CATALOG, tmp_path / "fixture.json")
    before = cache.load_all(tmp_path, [FIXTURE_SPEC])["fixture"]
    edited = FIXTURE_CATALOG.read_text(encoding="utf-8").replace('"pv": 40', '"pv": 41')
    (tmp_path / "fixture.json").write_text(edited, encoding="utf-8")
    after = cache.load_all(tmp_path, [FIXTURE_SPEC])["fixture"]
    assert after.cards[0].pv == 41
    assert before.cards[0].pv == 40
    assert cache.index({"fixture": after}) is not cache.index({"fixture": before})
    (tmp_path / "fixture.json").write_text('{"game": "fixture"', encoding="utf-8")
    for _ in range(2):  # a broken file is refused every time, as load_all refuses it
        with pytest.raises(CatalogError, match="invalid JSON"):
            cache.load_all(tmp_path, [FIXTURE_SPEC])
