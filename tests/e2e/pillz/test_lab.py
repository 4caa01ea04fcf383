"""/pillz labo as a player sees it through Discord: the active deck against the practice duels' AI, in
French, with its chart and nothing paid; a slot that holds no deck is refused with its reason."""

from __future__ import annotations

import pytest

from sandbox.harness import BotHarness
from tests.e2e.messages import plain, shown

pytestmark = pytest.mark.usefixtures("no_pacing")


async def test_the_active_deck_against_the_ai(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.bot.services.lab.battles = 6  # a lean batch (a duel's AI searches), on the real worker processes
    # the workers start at a lower priority than this process: slowly while the suite holds the cores
    harness.emu.action_timeout = 60.0
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.emu.run_command(alice, "pillz collection")  # her first Pillz command: the starter deck
    await harness.settle()
    await harness.emu.run_command(alice, "pillz labo")
    await harness.settle()
    answers = [m for m in harness.emu.ephemeral_messages(alice) if "Labo Pillz" in shown(m)]
    assert len(answers) == 1
    text = plain(shown(answers[0]))
    assert "Labo Pillz duel : votre deck actif" in text
    assert "6 combats contre l'IA" in text
    assert "L'IA des duels d'entraînement" in text
    assert "Durée moyenne en manches : " in text
    assert "parmi vos 4 personnages tirés au sort" in text
    assert [a.filename for a in answers[0].attachments] == ["labo.png"]

    refused = await harness.emu.run_command(bob, "pillz labo", {"emplacement": 2})
    assert refused.message is not None
    assert "L'emplacement 2 est vide." in plain(shown(refused.message))
    assert not [m for m in harness.emu.ephemeral_messages(bob) if "Labo" in shown(m)]
