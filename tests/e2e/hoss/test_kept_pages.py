"""A collection page asked again as it stands is sent as it was rendered (cogs/hoss/views.py `KEPT_PAGES`),
and rendered again as soon as anything it shows changes: a copy more, another page, another language."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.hoss.views as views
from discord_app.render import KeptReplies
from emulator import InteractionResult
from emulator.records import walk_components
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import give

CARDS = ("sq_guerrier_1", "orc_mage_1", "sq_cavalier_1", "sq_lancier_1", "sq_assassin_1", "sq_guerrier_2a")


class Counted:
    def __init__(self) -> None:
        self.calls = 0
        self.render = views._collection_reply

    def __call__(self, *args: Any) -> dict[str, Any]:
        self.calls += 1
        return self.render(*args)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Counted:
    counted = Counted()
    monkeypatch.setattr(views, "_collection_reply", counted)
    monkeypatch.setattr(views, "KEPT_PAGES", KeptReplies())
    return counted


def shown(reply: InteractionResult) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    message = reply.message
    assert message is not None
    assert message.ephemeral_to is not None
    return [dict(e) for e in message.embeds], list(walk_components(message.components))


async def test_the_same_page_is_rendered_once_and_sent_alike(harness: BotHarness, renders: Counted) -> None:
    erin = harness.user("erin")
    for card in CARDS[:2]:
        await give(harness, erin, card)
    first = shown(await harness.emu.run_command(erin, "hoss collection"))
    for _ in range(3):
        assert shown(await harness.emu.run_command(erin, "hoss collection")) == first
    assert renders.calls == 1
    assert "(2 " in str(first[0][0]["title"])


async def test_a_new_copy_another_language_or_another_page_is_rendered(
    harness: BotHarness, renders: Counted
) -> None:
    erin = harness.user("erin")
    for card in CARDS[:2]:
        await give(harness, erin, card)
    before = shown(await harness.emu.run_command(erin, "hoss collection"))
    await give(harness, erin, CARDS[2])
    after = shown(await harness.emu.run_command(erin, "hoss collection"))
    assert renders.calls == 2
    assert "(3 " in str(after[0][0]["title"])
    assert after != before
    await harness.emu.run_command(erin, "settings language", {"language": "en"})
    english = shown(await harness.emu.run_command(erin, "hoss collection"))
    assert renders.calls == 3
    assert english[0][0]["title"] != after[0][0]["title"]
    ivan = harness.user("ivan")  # the same copies' page of another player is his own
    for card in CARDS[:3]:
        await give(harness, ivan, card)
    his = shown(await harness.emu.run_command(ivan, "hoss collection"))
    assert renders.calls == 4
    assert his[1] != after[1]  # his buttons and select name him


async def test_a_kept_pages_buttons_and_select_still_answer(harness: BotHarness, renders: Counted) -> None:
    erin = harness.user("erin")
    for number in range(12):  # two pages of ten
        await give(harness, erin, CARDS[number % len(CARDS)])
    await harness.emu.run_command(erin, "hoss collection")
    kept = await harness.emu.run_command(erin, "hoss collection")
    assert renders.calls == 1
    message = kept.message
    assert message is not None
    following = await harness.emu.click(erin, "Suivant ▶", message=message)
    assert following.message is not None
    assert "page 2/2 (12 cartes)" in str(following.message.embeds[0]["title"])
    (menu,) = [c for c in walk_components(message.components) if c.get("type") == 3]
    detail = await harness.emu.select(
        erin, values=[str(menu["options"][0]["value"])], custom_id=str(menu["custom_id"]), message=message
    )
    assert detail.message is not None
    assert detail.message.ephemeral_to == erin
