"""What a fusion costs (issue 39): the preview plans from the copies it selected, and the confirmation selects
them again, checks them against the preview and fuses them in one write unit, reading nothing besides it."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from sandbox.harness import BotHarness
from services.hoss import collection, fusion
from tests.e2e.hoss.helpers import give, text


def count_calls(monkeypatch: pytest.MonkeyPatch, modules: list[ModuleType], name: str) -> list[object]:
    """Calls of `name` through each of `modules` (each imported it by name)."""
    calls: list[object] = []
    for module in modules:
        original = getattr(module, name)

        def counted(*args: Any, original: Any = original) -> Any:
            calls.append(args)
            return original(*args)

        monkeypatch.setattr(module, name, counted)
    return calls


async def test_a_confirmed_fusion_reads_nothing_and_a_stale_one_fuses_nothing(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "hoss fusion", {"carte": "orc_mage_1"})  # welcome, first reads
    await harness.settle()
    for _ in range(2):
        await give(harness, alice, "orc_mage_1")
    assert harness.bot is not None
    db = harness.bot.services.db
    faces_read = count_calls(monkeypatch, [collection, fusion], "face_down_ids")
    preview = await harness.emu.run_command(alice, "hoss fusion", {"carte": "orc_mage_1"})
    assert "1 paire" in text(preview)
    assert len(faces_read) == 1  # the preview plans from the copies it selected, without reading them again
    await harness.settle()
    reads, batches = db.reads, db.batches
    done = await harness.emu.click(alice, "Fusionner", message=preview.message)
    assert "/1 réussie" in text(done)
    assert (db.reads - reads, db.batches - batches) == (0, 1)
    # a preview whose copies changed since: refused inside the unit, nothing fused
    await give(harness, alice, "orc_mage_1")
    sold = await give(harness, alice, "orc_mage_1")
    preview = await harness.emu.run_command(alice, "hoss fusion", {"carte": "orc_mage_1"})
    await harness.emu.run_command(alice, "hoss vendre carte", {"exemplaire": sold})
    stale = await harness.emu.click(alice, "Fusionner", message=preview.message)
    assert "rien n'a été fusionné" in text(stale)
