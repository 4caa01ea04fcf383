"""End-to-end: the real bot and discord.py client against the in-repo emulator, acting as users.

Every test fails if the emulator saw a route it does not know, or if the bot swallowed an unexpected
error (tests that provoke one on purpose take it out of `harness.bot.game_tree.unexpected_errors`), or
if any request the bot sent breaks one of Discord's documented limits (tests/e2e/payload_limits.py, checked
whether or not the emulator enforces that limit).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path

import orjson
import pytest

from core.message_guard import GUARD
from emulator.records import Records, RequestRecord
from sandbox.harness import BotHarness
from services.hoss.battle.ranked import RankedService
from tests.conftest import MigratedCopy
from tests.e2e.drop_scenes import SEED as DROPS_SEED
from tests.e2e.payload_limits import problems
from tests.e2e.words_scan import internal_words, slugs
from tests.fixtures import fixture_game
from tests.support.registries import every_game


class _Tap(list[RequestRecord]):
    """An emulator's request log that also hands each request to the suite's payload check."""

    def __init__(self, sink: list[RequestRecord]) -> None:
        super().__init__()
        self._sink = sink

    def append(self, record: RequestRecord) -> None:
        super().append(record)
        self._sink.append(record)


@pytest.fixture(autouse=True)
def payload_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[RequestRecord]]:
    """Every request of every emulator the test starts, checked at teardown (after the bot stopped, so
    requests sent while closing count too) against Discord's limits and for a repr or a card id in what
    it shows (tests/e2e/words_scan.py); a record's body is filled in after it is logged."""
    sent: list[RequestRecord] = []
    original = Records.__init__

    def tapped(self: Records) -> None:
        original(self)
        self.requests = _Tap(sent)

    monkeypatch.setattr(Records, "__init__", tapped)
    yield sent
    ids = slugs(GUARD.forbidden)
    checked = [_checked(r, ids) for r in sent]
    found = [p for limits, _ in checked for p in limits]
    assert not found, "payloads over Discord's limits:\n" + "\n".join(found[:20])
    shown = [w for _, words in checked for w in words]
    assert not shown, "what players would read of the bot's internals:\n" + "\n".join(shown[:20])


# The command lists (PUT) found clean, by their JSON and the ids looked for: every bot start sends the
# same 155 kB list, whose two checks took 9 ms a test. A list found at fault is checked again each time,
# so that its messages name its own request.
_CLEAN_LISTS: set[tuple[bytes, int, frozenset[str]]] = set()


def _checked(record: RequestRecord, ids: frozenset[str]) -> tuple[list[str], list[str]]:
    """The request's breaches of Discord's limits, and what it shows of the bot's internals."""
    key = None
    if record.method == "PUT":
        key = (orjson.dumps(record.json, option=orjson.OPT_SORT_KEYS), len(record.files), ids)
        if key in _CLEAN_LISTS:
            return [], []
    limits = problems(record.method, record.path, record.json, len(record.files))
    words = internal_words(record.method, record.path, record.json, ids)
    if key is not None and not limits and not words:
        _CLEAN_LISTS.add(key)
    return limits, words


@pytest.fixture(autouse=True)
def _every_bot_on_postgresql(_postgresql_database: None) -> None:
    """With `TEST_DATABASE=postgresql`, every bot a test starts runs on PostgreSQL (tests/conftest.py)."""


async def run_harness(h: BotHarness) -> AsyncGenerator[BotHarness, None]:
    await h.start()
    try:
        yield h
        await h.settle()
        h.emu.assert_no_errors()
        assert h.unexpected_errors == []
    finally:
        await h.stop()


@pytest.fixture
async def harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    """The platform alone, as it ships today."""
    async for h in run_harness(BotHarness(migrated_copy(tmp_path / "bot.sqlite3"), owners=("olivia",))):
        yield h


@pytest.fixture
async def drops_harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    """The platform with seeded draws (tests/e2e/drop_scenes.py `SEED`): the same steps give the same
    drop, whatever the database."""
    h = BotHarness(migrated_copy(tmp_path / "bot.sqlite3"), owners=("olivia",), seed=DROPS_SEED)
    async for running in run_harness(h):
        yield running


@pytest.fixture
async def game_harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    """The platform with the test-only fixture game plugged in the way a real game plugs in."""
    h = BotHarness(
        migrated_copy(tmp_path / "bot.sqlite3"),
        owners=("olivia",),
        data_dir=fixture_game.data_dir_with_fixture(tmp_path / "data"),
        extra_extensions=("tests.fixtures.fixture_game",),
        registry=every_game().with_games(fixture_game.SPEC),
    )
    async for running in run_harness(h):
        yield running


@pytest.fixture
def no_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    """HOSS rounds are shown one per edit 5 s apart on the bot's clock; with no pace every round's edit
    is due at once, so the tests that use this need not move the clock."""
    monkeypatch.setattr(RankedService, "pace", timedelta(0))
