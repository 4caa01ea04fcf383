"""What selling one copy costs (issue 39): the sale's write unit refuses a copy you cannot see and names the
card it sold, so the command reads nothing besides it."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import LINES, give, gold, text


async def test_selling_one_copy_reads_nothing_and_refuses_someone_elses(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    for line in LINES:
        await give(harness, alice, f"{line}_1")
    first, second = [await give(harness, alice, "orc_mage_1") for _ in range(2)]
    theirs = await give(harness, bob, "orc_mage_1")
    await harness.emu.run_command(alice, "hoss vendre carte", {"exemplaire": first})  # welcome, first reads
    await harness.settle()  # and its after-command look for notices
    assert harness.bot is not None
    db = harness.bot.services.db
    reads = db.reads
    reply = await harness.emu.run_command(alice, "hoss vendre carte", {"exemplaire": second})
    assert "Vendu\u00a0: Chaman des cendres pour 2 or. Solde\u00a0: 304 or." in text(reply)
    assert db.reads - reads == 0
    reply = await harness.emu.run_command(alice, "hoss vendre carte", {"exemplaire": theirs})
    assert "n'est pas (ou plus) à vous" in text(reply)
    assert await gold(harness, alice) == 304
