"""Clicks reach their component class through the bot's router (discord_app/component_router.py)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from discord_app.component_router import ComponentRouter, bucket_of, literal_start
from discord_app.components import PersistentButton
from emulator import EmulatorError
from emulator.records import walk_components
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import give


class Plain(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"test:plain:(?P<n>\d+)"):
    """A DynamicItem of another kind: the router leaves its clicks to discord.py."""


class Paged(PersistentButton, template=r"test:page:(?P<n>\d+)"):
    pass


class Loose(PersistentButton, template=r"(?P<game>\w+):loose"):
    pass


def test_templates_are_indexed_by_their_literal_start() -> None:
    assert literal_start(r"hoss:page:(?P<owner>\d+):x") == "hoss:page:"
    assert literal_start(r"outbox:show:(?P<id>\d+)") == "outbox:show:"
    assert bucket_of("hoss:page:1:2") == "hoss:page:"
    assert bucket_of("hoss") is None
    assert bucket_of("hoss:page") is None
    router = ComponentRouter()
    router.add(Paged, Loose)
    found = router.find("test:page:12", discord.ComponentType.button.value)
    assert found is not None
    assert [(cls, m["n"]) for cls, m in found] == [(Paged, "12")]
    loose = router.find("pillz:loose", discord.ComponentType.button.value)  # no literal start: always tried
    assert loose is not None
    assert loose[0][0] is Loose
    assert router.find("test:page:12", discord.ComponentType.string_select.value) is None  # not a select
    assert router.find("test:page:x", discord.ComponentType.button.value) is None
    router.add(Plain)
    assert router.find("test:plain:3", discord.ComponentType.button.value) is None  # discord.py's to run
    router.remove(Paged)
    assert router.find("test:page:12", discord.ComponentType.button.value) is None


async def test_a_click_does_not_rebuild_the_messages_view(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py rebuilt the clicked message's whole view at each click; the router reads nothing of it."""
    rebuilt: list[object] = []
    original = discord.ui.View.from_message

    def counting(*args: Any, **kwargs: Any) -> Any:
        rebuilt.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(discord.ui.View, "from_message", counting)
    alice = harness.user("alice")
    for _ in range(11):
        await give(harness, alice, "orc_mage_1")
    await harness.emu.run_command(alice, "hoss collection")
    reply = await harness.emu.click(alice, "Suivant ▶")
    assert reply.message is not None
    assert "page 2/2" in str(reply.message.render())
    assert rebuilt == []


async def test_a_click_on_a_component_its_message_does_not_show_is_dropped(harness: BotHarness) -> None:
    """As discord.py does: a modified client cannot click a button the bot never put on that message."""
    alice = harness.user("alice")
    for _ in range(11):
        await give(harness, alice, "orc_mage_1")
    page = await harness.emu.run_command(alice, "hoss collection")
    assert page.message is not None
    shown = {c.get("custom_id") for c in walk_components(page.message.components)}
    next_id = next(i for i in shown if isinstance(i, str) and i.startswith("hoss:page:") and i.endswith(":2"))
    elsewhere = await harness.emu.run_command(alice, "profile")  # a message without that button
    assert elsewhere.message is not None
    harness.emu.action_timeout = 0.3
    with pytest.raises(EmulatorError, match="no complete answer"):
        await harness.emu._component(
            alice, elsewhere.message, {"custom_id": next_id, "component_type": 2}, None
        )
    harness.emu.errors.clear()
