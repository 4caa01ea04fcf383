"""A trade's refusal as players read it: its numbers written out in the reader's language, never the
objects the service built them from (issue: « Vous proposez Number(value=999999) … »)."""

from __future__ import annotations

from sandbox.harness import BotHarness
from tests.e2e.trades.authorization import GAME, members_for_long


async def test_a_gift_over_the_balance_names_both_amounts_in_each_language(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    for player in (alice, bob):
        await h.emu.run_command(player, "pillz collection")  # the starter deck and 300 coins

    french = await h.emu.run_command(alice, "cadeau", {"joueur": bob, "jeu": GAME, "montant": 999_999})
    assert french.message is not None
    assert french.message.render() == "Vous proposez 999\u202f999 mais n'avez que 300."
    english = await h.emu.run_command(bob, "gift", {"player": alice, "game": GAME, "amount": 1_000_000})
    assert english.message is not None
    assert english.message.render() == "You offer 1,000,000 but have only 300."
