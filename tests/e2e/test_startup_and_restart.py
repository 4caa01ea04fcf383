"""Start-up failures are plain messages; durable jobs and the outbox survive a restart of the bot."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import ManualClock
from sandbox.harness import BotHarness
from services.infra.catalogs import CatalogError
from services.infra.games import GameRegistry
from tests.fixtures import fixture_game
from tests.platform.bot_process import database_refusal
from tests.support.registries import every_game

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "catalogs"


@pytest.fixture
def with_fixture() -> GameRegistry:
    """Every game and the test-only fixture game, as the bot would serve them."""
    return every_game().with_games(fixture_game.SPEC)


async def test_broken_catalog_stops_start_up_naming_file_card_and_field(
    tmp_path: Path, with_fixture: GameRegistry
) -> None:
    data = fixture_game.data_dir_with_fixture(tmp_path / "data")
    shutil.copy(FIXTURES / "out_of_range.json", data / "fixture.json")
    harness = BotHarness(tmp_path / "bot.sqlite3", data_dir=data, registry=with_fixture)
    try:
        with pytest.raises(CatalogError) as caught:
            await harness.start()
    finally:
        await harness.stop()
    message = str(caught.value)
    assert "fixture.json" in message
    assert 'card "sylvan_archer"' in message
    assert 'field "pv"' in message


def test_unusable_database_path_is_a_plain_message(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    database_refusal(tmp_path, blocker / "bot.sqlite3")


async def test_a_deadline_set_before_a_restart_fires_once_after_it(
    tmp_path: Path, with_fixture: GameRegistry
) -> None:
    db = tmp_path / "bot.sqlite3"
    clock = ManualClock()
    data = fixture_game.data_dir_with_fixture(tmp_path / "data")
    extra = {"data_dir": data, "extra_extensions": ("tests.fixtures.fixture_game",), "registry": with_fixture}

    first = BotHarness(db, clock=clock, **extra)  # type: ignore[arg-type]
    await first.start()
    try:
        alice = first.user("alice")
        await first.emu.run_command(alice, "fixture remind", {"hours": 24, "what": "ton tour"})
    finally:
        await first.stop()

    clock.advance(timedelta(hours=48))  # the bot was down when the deadline passed
    second = BotHarness(db, clock=clock, **extra)  # type: ignore[arg-type]
    alice = second.user("alice")  # she still exists on Discord while the bot restarts
    await second.start()
    try:
        await second.settle()
        assert [m.content for m in second.emu.dm_messages(alice)] == ["Reminder: ton tour"]
    finally:
        await second.stop()

    third = BotHarness(db, clock=clock, **extra)  # type: ignore[arg-type]
    alice = third.user("alice")
    await third.start()
    try:
        await third.settle()
        assert third.emu.dm_messages(alice) == []
    finally:
        await third.stop()
