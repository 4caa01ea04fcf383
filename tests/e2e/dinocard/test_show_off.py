"""« Montrer » on a /dino buy reply: a booster's rare card gets a button, which posts the card with its
picture in the channel once (services/shared/showoff.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sandbox.harness import BotHarness
from tests.conftest import MigratedCopy
from tests.e2e.show_off import seeded, show_labels, shown_once

SEED = 2  # three boosters draw one rare card: Foudre divine


@pytest.fixture
async def harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    async for h in seeded(tmp_path, migrated_copy, SEED):
        yield h


async def test_a_rare_card_is_shown_once(harness: BotHarness) -> None:
    alice = harness.user("alice")
    bought = await harness.emu.run_command(alice, "dino buy", {"count": 3})
    assert bought.message is not None
    assert show_labels(bought.message) == ["Montrer\u00a0: Foudre divine"]
    line = "{player} montre sa carte **Foudre divine** (Rare, Dinocard)\u202f!"
    await shown_once(harness, alice, bought.message, "Foudre divine", line, "dinocard-foudre_divine.png")
