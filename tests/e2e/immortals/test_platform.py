"""Immortal's War on the platform's commands: /card shows a unit in each language through the game's
`card_fields` with its drawn picture, /profile shows the game's line and both currencies, and
`/setup immortals` sets a server's time per choice."""

from __future__ import annotations

import io
from datetime import timedelta

from PIL import Image

from sandbox.harness import BotHarness
from services.immortals import ImmortalsServices


async def test_card_shows_a_unit_in_each_language(harness: BotHarness) -> None:
    alice, bob = harness.user("alice", locale="fr"), harness.user("bob", locale="en-GB")
    french = await harness.emu.run_command(alice, "carte", {"nom": "immortals:imp"})
    assert french.message is not None
    text = french.message.render()
    assert "Diablotin" in text
    assert "Démons (bonus de famille\u00a0: +2 aux dégâts)" in text
    assert "Désert" in text
    assert "Niveau 1\u00a0: 4 / 2" in text
    assert "Dès le niveau 3\u00a0: +1 ATQ" in text
    english = await harness.emu.run_command(bob, "card", {"name": "immortals:imp"})
    assert english.message is not None
    assert "Demons (family bonus: +2 damage)" in english.message.render()


async def test_profile_shows_the_game_line_and_currencies(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    await harness.emu.run_command(alice, "immortels collection")
    reply = await harness.emu.run_command(alice, "profil")
    assert reply.message is not None
    text = reply.message.render()
    assert "Immortal's War\u00a0: 0 point de combat, 0 XP, 0 duel (0 V / 0 N / 0 D)" in text
    assert "Immortal's War\u00a0: 100 pièces d'or, 0 fragment d'âme" in text


async def test_card_attaches_the_drawn_unit(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    reply = await harness.emu.run_command(alice, "carte", {"nom": "immortals:imp"})
    assert reply.message is not None
    (attachment,) = reply.message.attachments
    assert attachment.filename == "immortals-imp.png"
    assert Image.open(io.BytesIO(attachment.data)).size == (360, 504)
    (embed,) = reply.message.embeds
    assert embed["image"]["url"] == "attachment://immortals-imp.png"
    assert embed["color"] == 0xB88250  # tier 1


async def test_setup_immortals_sets_the_time_of_each_round(harness: BotHarness) -> None:
    """`/setup immortels` in French, shown by `/setup show`, and a practice duel's round waits that long
    before the AI chooses for the player."""
    mallory = harness.user("mallory", admin=False)
    harness.emu.enforce_default_permissions = False  # a re-granted command is still checked
    refused = await harness.emu.run_command(mallory, "setup immortels", {"secondes": 60})
    assert "Gérer le serveur" in str(refused.message.render() if refused.message else "")
    olivia = harness.user("olivia")
    saved = await harness.emu.run_command(olivia, "setup immortels", {"secondes": 60})
    assert saved.message is not None
    assert "Immortal's War — temps par choix\u00a0: 60 s" in saved.message.render()
    shown = await harness.emu.run_command(olivia, "setup show")
    assert shown.message is not None
    assert "Immortal's War — temps par choix\u00a0: 60 s" in shown.message.render()
    english = await harness.emu.run_command(harness.user("oscar", locale="en-GB", admin=True), "setup show")
    assert english.message is not None
    assert "Immortal's War — time per choice: 60 s" in english.message.render()

    alice = harness.user("alice")
    await harness.emu.run_command(alice, "immortels entraînement")
    await harness.settle()
    assert harness.bot is not None
    services: ImmortalsServices = harness.bot.services.games["immortals"]
    (duel,) = await services.duels.live(alice.id)
    assert duel.state is not None
    assert await harness.advance(timedelta(seconds=59)) == 0
    assert await harness.advance(timedelta(seconds=2)) == 1  # the round's timeout: the AI chose for alice
    after = await services.duels.get(duel.id)
    assert after.state is not None
    assert after.status != "live" or after.state.round == duel.state.round + 1
