"""Suite-wide settings: tests never read the developer's `.env` or environment for settings, the `slow`
tests start first, a freshly migrated database is a copy rather than a migration per test, and the bots
a test process starts share the catalogs loaded from the same file contents."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from core.message_guard import GUARD, STRICT_ENV
from services.infra import container
from services.infra.catalogs import DATA_DIR
from services.infra.games import GameRegistry
from services.infra.players import PlayerService
from tests.fixtures import postgres
from tests.fixtures.catalog_cache import CatalogCache
from tests.services.conftest import open_database, open_postgres
from tests.support.registries import every_game
from tests.support.wording import written_wording


@pytest.fixture(scope="session")
def card_image_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One card image cache per test process: a card drawn by one test is read by the next ones."""
    return tmp_path_factory.mktemp("card-images")


@pytest.fixture(autouse=True)
def _clean_settings_env(monkeypatch: pytest.MonkeyPatch, card_image_folder: Path) -> None:
    monkeypatch.setenv("CARD_IMAGE_CACHE", str(card_image_folder))
    for name in list(os.environ):
        if name in {
            "DISCORD_TOKEN",
            "DATABASE_PATH",
            "DATABASE_URL",
            "DEV_GUILD_ID",
            "OWNER_IDS",
            "DEFAULT_LOCALE",
            "TIMEZONE",
            "LOG_LEVEL",
            "SHARD_COUNT",
            "SHARD_IDS",
        }:
            monkeypatch.delenv(name, raising=False)


_CATALOGS = CatalogCache()


def pytest_configure(config: pytest.Config) -> None:
    """Messages are strict in every test and every bot process a test starts (core/message_guard.py): a
    repr or a card id about to be shown raises, and the test fails. The shipped catalogs' ids are known
    from the start, whether or not the test builds a bot."""
    os.environ[STRICT_ENV] = "1"
    GUARD.strict = True
    GUARD.wording = written_wording
    GUARD.forbid(
        card.id
        for catalog in _CATALOGS.load_all(DATA_DIR, every_game().all_games()).values()
        for card in catalog.cards
    )


@pytest.fixture(autouse=True)
def _nothing_internal_shown() -> Iterator[None]:
    """A repr or a card id a message tried to show fails the test, even where its `LeakedInternal` was
    caught on the way (a loop that logs its errors). A test that provokes one on purpose takes it out of
    `GUARD.findings`."""
    GUARD.findings.clear()
    yield
    found, GUARD.findings[:] = list(GUARD.findings), []
    assert found == [], "messages that would show something internal:\n" + "\n".join(found)


@pytest.fixture(autouse=True)
def _shared_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up's catalogs and `/card` index come from one cache per test process
    (tests/fixtures/catalog_cache.py); `catalogs.load_all` itself is tested unchanged."""
    monkeypatch.setattr(container, "load_all", _CATALOGS.load_all)
    monkeypatch.setattr(container, "CardIndex", _CATALOGS.index)


@pytest.fixture(autouse=True)
def _check_kept_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every /profile answered from memory in any test is compared with a fresh read: a write that changes
    a profile's line without announcing it fails the test that shows the profile afterwards."""
    monkeypatch.setattr(PlayerService, "check_kept_profiles", True)


# What opens the run's PostgreSQL database: the services' `db`, the e2e bots' DATABASE_URL, the cluster.
POSTGRESQL_FIXTURES = frozenset({"db", "_postgresql_database", "pg_cluster"})


def pytest_collection_modifyitems(items: list[pytest.Item], config: pytest.Config) -> None:
    """The `slow` tests (minutes on a loaded machine) go first: pytest-xdist hands tests out in order, so a
    long test collected near the end would run alone while the other workers sit idle; started first, the
    short tests fill in around it. The order within each group is kept.

    With `TEST_DATABASE=postgresql`, a test marked `sqlite_only(reason)` is skipped with its reason, shown
    in the summary (`-rs`): what does not run on PostgreSQL is listed, never left out silently. A test that
    opens no PostgreSQL database at all (a parser's properties, the crash-safety worker on its SQLite file,
    `bot.py` on a bad file) would run exactly as in the SQLite run: it is deselected (docs/deployment.md,
    "Tests on PostgreSQL")."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if not postgres.enabled():
        return
    unused = [item for item in items if POSTGRESQL_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))]
    if unused:
        config.hook.pytest_deselected(items=unused)
        left = set(unused)
        items[:] = [item for item in items if item not in left]
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else marker.kwargs.get("reason")
            if not reason:
                raise pytest.UsageError(f"{item.nodeid}: sqlite_only needs a reason")
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


@pytest.fixture
def _postgresql_database(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """With `TEST_DATABASE=postgresql`, every bot or container the test starts (restarts included) opens one
    fresh PostgreSQL database in the template's state through `DATABASE_URL`, which wins over the SQLite
    file its settings name. The end-to-end tests use it for every test (tests/e2e/conftest.py), a service
    test that builds the whole container asks for it."""
    with postgres.leased(request, monkeypatch):
        yield


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[postgres.Cluster]:
    """One PostgreSQL server per test process, with a migrated template database, stopped at the end."""
    cluster = postgres.Cluster()
    try:
        cluster.start()
        url = cluster.create(template=None)

        async def migrate_template() -> None:
            database = await open_postgres(url)
            await database.close()

        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, migrate_template()).result()
        cluster.rename(url, postgres.TEMPLATE)
        yield cluster
    finally:
        cluster.stop()


MigratedCopy = Callable[[Path], Path]


@pytest.fixture(scope="session")
def migrated_copy(tmp_path_factory: pytest.TempPathFactory) -> MigratedCopy:
    """Copies of one database migrated by the bot's own start-up code, once per test process.

    Each migration is its own transaction, committed with a full sync: migrating from scratch took 0.15 to
    0.3 s per test on this shared machine, a copy about 0.01 s. The copy is opened by the usual path (which
    still checks every migration's checksum); migrating from scratch and from every earlier version is
    tested on its own (tests/services/store/test_migrations.py).
    """
    template = tmp_path_factory.mktemp("migrated") / "template.sqlite3"

    async def migrate_template() -> None:
        database = await open_database(template)
        await database.close()

    # In a thread of its own: asyncio.run must not replace the event loop pytest-asyncio set for the tests.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, migrate_template()).result()
    leftovers = [p.name for p in template.parent.iterdir() if p != template]
    assert not leftovers, f"the template must be one self-contained file after closing, found {leftovers}"

    def copy(destination: Path) -> Path:
        shutil.copyfile(template, destination)
        return destination

    return copy


@pytest.fixture
def registry() -> GameRegistry:
    """The games a test's services know: every game, as production's container discovers them, unless
    the test or its game's conftest.py names others (`GameRegistry((GAME,))`: a player it creates then
    gets exactly that game's starting wallet)."""
    return every_game()
