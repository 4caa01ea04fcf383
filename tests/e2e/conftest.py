"""End-to-end: the real bot and discord.py client against the in-repo emulator, acting as users.

Every test fails if the emulator saw a route it does not know, or if the bot swallowed an unexpected
error (tests that provoke one on purpose take it out of `harness.bot.game_tree.unexpected_errors`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from cogs._hoss_battle import BattlePace
from sandbox.harness import BotHarness
from services import games
from tests.fixtures import fixture_game


async def _run(h: BotHarness) -> AsyncIterator[BotHarness]:
    await h.start()
    try:
        yield h
        await h.settle()
        h.emu.assert_no_errors()
        assert h.unexpected_errors == []
    finally:
        await h.stop()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[BotHarness]:
    """The platform alone, as it ships today."""
    async for h in _run(BotHarness(tmp_path / "bot.sqlite3", owners=("olivia",))):
        yield h


@pytest.fixture
async def game_harness(tmp_path: Path) -> AsyncIterator[BotHarness]:
    """The platform with the test-only fixture game plugged in the way a real game plugs in."""
    games.register(fixture_game.SPEC)
    try:
        h = BotHarness(
            tmp_path / "bot.sqlite3",
            owners=("olivia",),
            data_dir=fixture_game.data_dir_with_fixture(tmp_path / "data"),
            extra_extensions=("tests.fixtures.fixture_game",),
        )
        async for running in _run(h):
            yield running
    finally:
        games.unregister(fixture_game.SPEC.key)


@pytest.fixture
def no_pacing() -> Iterator[None]:
    """HOSS rounds are shown one per edit 5 s apart in production; the tests that use this do not wait."""
    before = BattlePace.seconds
    BattlePace.seconds = 0
    yield
    BattlePace.seconds = before
