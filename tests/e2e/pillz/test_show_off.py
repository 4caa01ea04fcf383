"""« Montrer » on a /pillz packs reply: a 4★ or 5★ character gets a button, which posts the character with
its picture in the channel once (services/shared/showoff.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sandbox.harness import BotHarness
from tests.conftest import MigratedCopy
from tests.e2e.show_off import seeded, show_labels, shown_once

SEED = 5  # one pack draws one character of 4★ or more: Le Patriarche voilé, 5★


@pytest.fixture
async def harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    async for h in seeded(tmp_path, migrated_copy, SEED):
        yield h


async def test_a_five_star_character_is_shown_once(harness: BotHarness) -> None:
    alice = harness.user("alice")
    bought = await harness.emu.run_command(alice, "pillz packs", {"count": 1})
    assert bought.message is not None
    assert show_labels(bought.message) == ["Montrer\u00a0: Le Patriarche voilé"]
    line = "{player} montre sa carte **Le Patriarche voilé** (★★★★★, Pillz duel)\u202f!"
    picture = "pillz-moines-the-veiled-patriarch.png"
    await shown_once(harness, alice, bought.message, "Le Patriarche voilé", line, picture)
