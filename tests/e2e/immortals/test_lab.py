"""/immortels labo as a player sees it through Discord: the deck against the practice duels' AI on each
terrain or on one, in French, with its chart; a player without a deck is refused with its reason."""

from __future__ import annotations

import pytest

from sandbox.harness import BotHarness
from tests.e2e.messages import plain, shown

pytestmark = pytest.mark.usefixtures("no_pacing")


async def test_the_deck_on_each_terrain_then_on_one(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.bot.services.lab.battles = 8  # a lean batch: 2 duels per terrain
    # the workers start at a lower priority than this process: slowly while the suite holds the cores
    harness.emu.action_timeout = 60.0
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.emu.run_command(alice, "immortels collection")  # her first command: the starter deck
    await harness.settle()
    await harness.emu.run_command(alice, "immortels labo")
    await harness.settle()
    answers = [m for m in harness.emu.ephemeral_messages(alice) if "Labo" in shown(m)]
    assert len(answers) == 1
    text = plain(shown(answers[0]))
    assert ": votre deck" in text
    for terrain in ("Forêt", "Désert", "Plaine", "Marais"):
        assert f"terrain : {terrain}" in text
    assert "Durée moyenne en combats : " in text
    assert "parmi vos 4 unités tirées au sort" in text
    assert [a.filename for a in answers[0].attachments] == ["labo.png"]

    refused = await harness.emu.run_command(bob, "immortels labo", {"terrain": "Marais"})
    assert refused.message is not None
    assert "n'a pas de deck jouable" in plain(shown(refused.message))
    assert not [m for m in harness.emu.ephemeral_messages(bob) if "Labo" in shown(m)]
