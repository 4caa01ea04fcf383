"""`BotHarness.settle` waits for every click's task, not only for discord.py's event and command tasks: a
persistent button's callback (run by the bot's component router) that still works after its response
(the battle message's attach) must be over before a test reads what it queued."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sandbox.harness import BotHarness
from services.hoss.battle.ranked import RankedService
from tests.e2e.hoss.helpers import start_rank_1, with_deck


async def test_settle_waits_for_a_persistent_buttons_work_after_its_response(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    attached: list[bool] = []
    original = RankedService.attach

    async def slow_attach(self: RankedService, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.3)  # far longer than the emulator's idle time
        await original(self, *args, **kwargs)
        attached.append(True)

    monkeypatch.setattr(RankedService, "attach", slow_attach)
    alice = harness.user("alice")
    await with_deck(harness, alice)
    await start_rank_1(harness, alice)  # "Combattre": a persistent button
    assert attached == []  # its response came before the attach
    await harness.settle()
    assert attached == [True]
