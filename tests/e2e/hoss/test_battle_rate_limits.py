"""A ranked battle whose message edits Discord rate-limits for longer than discord.py waits: the outbox,
which makes every edit of the battle message, retries them in order once the limit ends, so the message
ends on the battle as it is now, and the player sees no apology (a rate limit is not an error of theirs
or of the bot)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from emulator.core import Fault
from emulator.world import User
from sandbox.harness import BotHarness
from services.hoss.battle.ranked import RankedService
from tests.e2e.hoss.helpers import battle_message, decide_once, hoss, start_rank_1, with_deck
from tests.e2e.messages import shown
from tests.support.harness import here

EDITS = r"/channels/\d+/messages/\d+"
APOLOGY = "Désolé, quelque chose s'est mal passé"

pytestmark = pytest.mark.usefixtures("no_pacing")


async def limited_battle(h: BotHarness) -> tuple[User, int, Fault]:
    """Alice's battle started, then every edit of a message refused for 60 s (over discord.py's wait)."""
    alice = h.user("alice")
    await with_deck(h, alice)
    await start_rank_1(h, alice)
    await h.settle()  # the message attached to the battle (see the paced-rounds test below)
    battle = await hoss(h).ranked.current(alice.id)
    assert battle is not None
    return alice, battle, h.emu.rate_limit(EDITS, method="PATCH", times=None, retry_after=60)


async def test_a_rate_limited_battle_message_ends_on_the_final_state(harness: BotHarness) -> None:
    alice, battle, limit = await limited_battle(harness)

    await harness.emu.click(alice, "Passer à la fin")
    await harness.settle()

    assert "Gain de " not in shown(battle_message(harness))  # the edits were refused: still the old state
    harness.emu.faults.remove(limit)  # Discord's limit is over
    await harness.advance(timedelta(seconds=80))  # the outbox's back-off step over 60 s
    final = battle_message(harness)
    view = await hoss(harness).ranked.view(alice.id, battle, here(harness))
    assert view.result is not None
    text = shown(final)
    assert f"Gain de <@{alice.id}>\u00a0: {view.result.gold} or" in text
    assert f"**Manche {view.round}**" in text
    assert final.button_labels == []
    assert not any(APOLOGY in shown(m) for m in harness.emu.ephemeral_messages(alice))


async def test_a_queued_edit_does_not_overwrite_a_later_state(harness: BotHarness) -> None:
    """The limit ends before the outbox's retry: the battle moves on meanwhile, and its message must not
    go back to the queued, older state when the outbox delivers it."""
    alice, battle, limit = await limited_battle(harness)
    await decide_once(harness, alice)  # its edits are refused: the battle after it waits in the outbox
    stale = await harness.emu.click(alice, "Décider", message=battle_message(harness))  # drawn for pause 1
    assert stale.message is not None
    assert stale.message.ephemeral
    assert "il sera mis à jour dans un instant" in shown(stale.message)
    harness.emu.faults.remove(limit)
    await harness.advance(timedelta(seconds=70))  # the limit is over, the outbox retries at 80 s

    await harness.emu.click(alice, "Passer à la fin")
    await harness.settle()
    await harness.advance(timedelta(seconds=20))

    view = await hoss(harness).ranked.view(alice.id, battle, here(harness))
    assert view.result is not None
    text = shown(battle_message(harness))
    assert f"Gain de <@{alice.id}>\u00a0: {view.result.gold} or" in text
    assert f"**Manche {view.round}**" in text
    assert not any(APOLOGY in shown(m) for m in harness.emu.ephemeral_messages(alice))


async def test_a_limit_in_the_middle_of_the_paced_rounds_still_ends_on_the_result(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds 5 s apart on the clock; Discord refuses the edits from the second round on, for a while:
    the outbox retries them in order once it allows them, and the message ends on the result."""
    monkeypatch.setattr(RankedService, "pace", timedelta(seconds=5))
    alice = harness.user("alice")
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    await harness.advance(timedelta(minutes=2))  # alice does not answer: the AI plays the rest for her
    battle = await hoss(harness).ranked.current(alice.id)
    assert battle is None  # over: the rest are edits
    limit = harness.emu.rate_limit(EDITS, method="PATCH", times=None, retry_after=60)
    for _ in range(3):
        await harness.advance(timedelta(seconds=5))
    assert "Gain de " not in shown(public)
    harness.emu.faults.remove(limit)
    for _ in range(30):  # the back-off, then every round still owed
        await harness.advance(timedelta(seconds=80))
    assert "Gain de " in shown(public)
    assert public.attachments
    assert public.button_labels == []
    assert not any(APOLOGY in shown(m) for m in harness.emu.ephemeral_messages(alice))
