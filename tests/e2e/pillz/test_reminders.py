"""A Pillz duel's deadline in /minuteurs, and its reminder by DM 5 minutes before it on a server whose
choices last 20 minutes, to the player who must choose and turned reminders on (never to the other)."""

from __future__ import annotations

import re
from datetime import timedelta

from sandbox.harness import BotHarness
from tests.e2e.pillz.helpers import friend_duel, pillz


def text(result: object) -> str:
    return str(result.message.render()).replace("\u202f", " ")  # type: ignore[attr-defined]


async def test_a_long_choice_is_reminded_before_its_deadline(harness: BotHarness) -> None:
    admin = harness.user("olivia", admin=True)
    await harness.emu.run_command(admin, "configuration pillz", {"secondes": 1200})
    alice, bob = harness.user("alice"), harness.user("bob")
    for user in (alice, bob):
        await harness.emu.run_command(user, "paramètres rappels", {"état": "on"})
    _, _, duel_id = await friend_duel(harness)
    duel = await pillz(harness).duels.get(duel_id)
    (seat,) = duel.to_act()
    users = {alice.id: alice, bob.id: bob}
    to_act = users[duel.seats[seat] or 0]
    waiting = next(u for u in users.values() if u is not to_act)

    shown = text(await harness.emu.run_command(to_act, "minuteurs"))
    assert re.search(rf"\*\*Duel n° {duel_id}\*\*\u00a0: à vous de choisir, <t:\d+:R>", shown)
    assert f"Duel n° {duel_id}" not in text(await harness.emu.run_command(waiting, "minuteurs"))

    await harness.advance(timedelta(minutes=14, seconds=59))
    assert harness.emu.dm_messages(to_act) == []
    await harness.advance(timedelta(seconds=1))  # 5 minutes before the deadline
    dms = [m.render() for m in harness.emu.dm_messages(to_act)]
    assert len(dms) == 1
    assert (
        f"Rappel\u00a0: à vous de choisir dans le duel Pillz n° {duel_id}, l'IA jouera pour vous <t:"
        in dms[0]
    )
    assert harness.emu.dm_messages(waiting) == []


async def test_the_default_two_minutes_are_not_reminded(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    for user in (alice, bob):
        await harness.emu.run_command(user, "paramètres rappels", {"état": "on"})
    await friend_duel(harness)
    await harness.advance(timedelta(minutes=3))  # the AI chose for the player: no DM before
    assert harness.emu.dm_messages(alice) == harness.emu.dm_messages(bob) == []
