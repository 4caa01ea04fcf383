"""End-to-end: the real bot and discord.py client against the in-repo emulator, acting as users.

Every test fails if the emulator saw a route it does not know, or if the bot swallowed an unexpected error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sandbox.harness import BotHarness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[BotHarness]:
    h = BotHarness(tmp_path / "bot.sqlite3", owners=("olivia",))
    await h.start()
    try:
        yield h
        await h.settle()
        h.emu.assert_no_errors()
        assert h.unexpected_errors == []
    finally:
        await h.stop()
