"""What confirming a fusion costs (issue 39): the copies are selected again, checked against the preview and
fused in one write unit, so the click reads nothing besides it."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import give, text


async def test_a_confirmed_fusion_reads_nothing_and_a_stale_one_fuses_nothing(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "hoss fusion", {"carte": "orc_mage_1"})  # welcome, first reads
    await harness.settle()
    for _ in range(2):
        await give(harness, alice, "orc_mage_1")
    preview = await harness.emu.run_command(alice, "hoss fusion", {"carte": "orc_mage_1"})
    assert "1 paire" in text(preview)
    await harness.settle()
    assert harness.bot is not None
    db = harness.bot.services.db
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
