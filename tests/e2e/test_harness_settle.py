"""`BotHarness.settle` waits for every click's task, not only for discord.py's event and command tasks: a
persistent button's callback (run by the bot's component router) that still works after its response
(here the battle message's post, then more work) must be over before a test reads what it queued."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.hoss import battle as battle_cog
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import start_rank_1, with_deck


async def test_settle_waits_for_a_persistent_buttons_work_after_its_response(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    attached: list[bool] = []
    original = battle_cog.show_battle

    async def slow_show(*args: Any, **kwargs: Any) -> None:
        await original(*args, **kwargs)  # the response, then work the callback still does after it
        await asyncio.sleep(0.3)  # far longer than the emulator's idle time
        attached.append(True)

    monkeypatch.setattr(battle_cog, "show_battle", slow_show)
    alice = harness.user("alice")
    await with_deck(harness, alice)
    await start_rank_1(harness, alice)  # "Combattre": a persistent button
    assert attached == []  # its response came before the work that follows it
    await harness.settle()
    assert attached == [True]
