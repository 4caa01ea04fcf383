"""The platform's own commands, as users see them through Discord."""

from __future__ import annotations

from sandbox.harness import BotHarness


async def test_help_in_french_then_english(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    reply = await harness.emu.run_command(alice, "help")
    text = reply.message.render()
    assert "Aide" in text and "/profil" in text and "/paramètres langue" in text
    bob = harness.user("bob", locale="en-US")
    reply = await harness.emu.run_command(bob, "help")
    assert "Help" in reply.message.render() and "/profile" in reply.message.render()
