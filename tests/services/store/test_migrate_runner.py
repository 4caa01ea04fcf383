"""The migration runner itself: a broken or half-applied migration leaves the previous version, file
discovery refuses bad names and gaps, and the shipped files are well formed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from store.migrate import MIGRATIONS_DIR, apply_sync, current_version, discover
from tests.services.store.migrations import LATEST, MIGRATIONS, SEEDS, plain, schema, tables


def _copy_real_migrations(directory: Path) -> None:
    directory.mkdir()
    for path in MIGRATIONS_DIR.glob("*.sql"):
        shutil.copy(path, directory / path.name)


@pytest.mark.parametrize(
    "bad_sql",
    [
        "CREATE TABLE half (x INTEGER);\nINSERT INTO half VALUES (1);\nINSERT INTO missing VALUES (1);",
        "CREATE TABLE half (x INTEGER);\nALTER TABLE players ADD COLUMN nickname TEXT;\nTHIS IS NOT SQL;",
        "CREATE TABLE half (x INTEGER);\nINSERT INTO wallets VALUES (11, 'silver', -5);",  # a CHECK violation
    ],
    ids=["missing-table", "syntax-error", "constraint"],
)
def test_a_broken_migration_leaves_the_previous_version_untouched(tmp_path: Path, bad_sql: str) -> None:
    directory = tmp_path / "migrations"
    _copy_real_migrations(directory)
    (directory / f"{LATEST + 1:04d}_broken.sql").write_text(bad_sql, encoding="utf-8")
    migrations = discover(directory)
    path = tmp_path / "broken.sqlite3"
    with plain(path) as conn:
        apply_sync(conn, migrations, target=LATEST)
        SEEDS[1][0](conn)
        before = schema(conn)
        with pytest.raises(RuntimeError, match="broken"):
            apply_sync(conn, migrations)
        assert not conn.in_transaction
        assert current_version(conn) == LATEST
        assert "half" not in tables(conn)
        assert schema(conn) == before
        SEEDS[1][1](conn)

        # Once the file is fixed, the same database moves on.
        (directory / f"{LATEST + 1:04d}_broken.sql").write_text(
            "CREATE TABLE half (x INTEGER);", encoding="utf-8"
        )
        assert apply_sync(conn, discover(directory)) == [LATEST + 1]
        assert "half" in tables(conn)


def test_a_failure_midway_keeps_the_migrations_before_it(tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    directory.mkdir()
    (directory / "0001_one.sql").write_text("CREATE TABLE one (x INTEGER);", encoding="utf-8")
    (directory / "0002_two.sql").write_text("CREATE TABLE two (x INTEGER);", encoding="utf-8")
    (directory / "0003_bad.sql").write_text("CREATE TABLE three (x INTEGER); SELEC 1;", encoding="utf-8")
    (directory / "0004_four.sql").write_text("CREATE TABLE four (x INTEGER);", encoding="utf-8")
    with plain(tmp_path / "midway.sqlite3") as conn:
        with pytest.raises(RuntimeError, match="0003_bad"):
            apply_sync(conn, discover(directory))
        assert current_version(conn) == 2
        assert {"one", "two"} <= tables(conn)
        assert not {"three", "four"} & tables(conn)


def test_a_file_ending_in_a_comment_still_applies(tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    directory.mkdir()
    (directory / "0001_commented.sql").write_text(
        "CREATE TABLE t (x INTEGER) -- no final newline", encoding="utf-8"
    )
    with plain(tmp_path / "c.sqlite3") as conn:
        assert apply_sync(conn, discover(directory)) == [1]
        assert "t" in tables(conn)


@pytest.mark.parametrize(
    "names",
    [
        ["1_short.sql"],
        ["0001-dash.sql"],
        ["0001_Upper.sql"],
        ["0001_ok.sql", "0003_gap.sql"],
        ["0002_no_first.sql"],
        ["0001_a.sql", "0001_b.sql"],
    ],
)
def test_discover_rejects_bad_names_and_gaps(tmp_path: Path, names: list[str]) -> None:
    for name in names:
        (tmp_path / name).write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(ValueError, match=r"migration (file name must look like|versions must be 1\.\.N)"):
        discover(tmp_path)


def test_discover_orders_by_version_and_ignores_other_files(tmp_path: Path) -> None:
    for name in [
        "0002_second.sql",
        "0001_first.sql",
        "0010_tenth.sql",
        *(f"{i:04d}_m{i}.sql" for i in range(3, 10)),
    ]:
        (tmp_path / name).write_text(f"-- {name}", encoding="utf-8")
    (tmp_path / "README.md").write_text("not a migration", encoding="utf-8")
    found = discover(tmp_path)
    assert [m.version for m in found] == list(range(1, 11))
    assert found[0].name == "first"
    assert found[9].name == "tenth"
    (tmp_path / "empty").mkdir()
    assert discover(tmp_path / "empty") == []


def test_the_shipped_migrations_are_well_formed() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))
    assert all(m.sql.strip() for m in MIGRATIONS)
