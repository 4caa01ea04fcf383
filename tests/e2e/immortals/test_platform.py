"""Immortal's War on the platform's commands: /card shows a unit in each language through the game's
`card_fields`, and /profile shows the game's line and both currencies."""

from __future__ import annotations

from sandbox.harness import BotHarness


async def test_card_shows_a_unit_in_each_language(harness: BotHarness) -> None:
    alice, bob = harness.user("alice", locale="fr"), harness.user("bob", locale="en-GB")
    french = await harness.emu.run_command(alice, "carte", {"nom": "immortals:imp"})
    assert french.message is not None
    text = french.message.render()
    assert "Diablotin" in text
    assert "Démons (bonus de famille : +2 aux dégâts)" in text
    assert "Désert" in text
    assert "Niveau 1 : 4 / 2" in text
    assert "Dès le niveau 3 : +1 ATQ" in text
    english = await harness.emu.run_command(bob, "card", {"name": "immortals:imp"})
    assert english.message is not None
    assert "Demons (family bonus: +2 damage)" in english.message.render()


async def test_profile_shows_the_game_line_and_currencies(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    await harness.emu.run_command(alice, "immortels collection")
    reply = await harness.emu.run_command(alice, "profil")
    assert reply.message is not None
    text = reply.message.render()
    assert "Immortal's War : 0 point de combat, 0 XP, 0 duel (0 V / 0 N / 0 D)" in text
    assert "Pièces d'or : 100" in text
