"""/dino labo as a player sees it through Discord: a pack against each dojo master, in French, with its
chart; a pack of someone else's is refused."""

from __future__ import annotations

import pytest

from sandbox.harness import BotHarness
from tests.e2e.dinocard.helpers import packs_ready
from tests.e2e.messages import plain, shown

pytestmark = pytest.mark.usefixtures("no_pacing")


async def test_a_pack_against_each_master(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.bot.services.lab.battles = 24
    # the workers start at a lower priority than this process: slowly while the suite holds the cores
    harness.emu.action_timeout = 60.0
    alice, bob = harness.user("alice"), harness.user("bob")
    mine, theirs = await packs_ready(harness)
    await harness.emu.run_command(alice, "dino labo", {"pack": str(mine)})
    await harness.settle()
    answers = [m for m in harness.emu.ephemeral_messages(alice) if "Labo Dinocard" in shown(m)]
    assert len(answers) == 1
    text = plain(shown(answers[0]))
    assert f"Labo Dinocard : pack n° {mine} « Braise »" in text
    assert "Durée moyenne en phases : " in text
    assert "piochée pendant le combat" in text
    assert [a.filename for a in answers[0].attachments] == ["labo.png"]

    refused = await harness.emu.run_command(bob, "dino labo", {"pack": str(mine)})
    assert refused.message is not None
    assert f"Aucun de vos packs ne s'appelle « {mine} »" in plain(shown(refused.message))
    assert not [m for m in harness.emu.ephemeral_messages(bob) if "Labo" in shown(m)]
    assert theirs
