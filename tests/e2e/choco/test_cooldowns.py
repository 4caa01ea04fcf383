"""A Chocobataille game's turn deadline in /minuteurs, and no platform reminder on top of the game's own
(it DMs the player to act 12 h and 1 h before the deadline)."""

from __future__ import annotations

import re
from datetime import timedelta

from sandbox.harness import BotHarness
from tests.e2e.choco.helpers import challenge_accepted, with_bronze_deck


def text(result: object) -> str:
    return str(result.message.render()).replace("\u202f", " ")  # type: ignore[attr-defined]


async def test_the_turn_deadline_is_a_timer_reminded_by_the_game_alone(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    for user in (alice, bob):
        await with_bronze_deck(harness, user)
    await harness.emu.run_command(alice, "paramètres rappels", {"état": "on"})
    game = await challenge_accepted(harness, alice, bob)
    assert game.deadline_at is not None
    shown = text(await harness.emu.run_command(alice, "minuteurs"))
    stamp = int(game.deadline_at.timestamp())
    assert re.search(
        rf"\*\*Chocobataille, partie n° {game.id}\*\*\u00a0: à vous de jouer, échéance <t:{stamp}:R>", shown
    )
    await harness.advance(timedelta(hours=12))  # the game's 12 h reminder
    reminders = [m.render() for m in harness.emu.dm_messages(alice) if "Rappel" in m.render()]
    assert len(reminders) == 1
    assert "il vous reste 12 h pour jouer" in reminders[0]
