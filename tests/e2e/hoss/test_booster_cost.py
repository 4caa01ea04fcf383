"""What a booster's reply costs (issue 39): its buttons and sell select are written straight as Discord's
payload (`opening_items`, `discord_app.render.rows_of`), the very rows discord.py's items wrote, without
building a discord.py item for them."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from cogs.hoss.views import FlipAllButton, opening_items
from discord_app.render import STYLES, rows_of, text
from engine.hoss import RARITIES
from sandbox.harness import BotHarness
from services.hoss.shop import Opening, OpeningCard, SaleToConfirm
from services.infra.messages import Button, Select
from tests.e2e.hoss.helpers import count_items
from tests.e2e.hoss.helpers import text as reply_text
from tests.services.hoss.ranked import catalog


async def test_a_booster_and_its_flips_build_no_discord_py_item(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "hoss collection")  # the welcome, whose buttons are its own
    await harness.settle()
    built = count_items(monkeypatch)
    reply = await harness.emu.run_command(alice, "hoss booster")
    assert reply_text(reply).count("face cachée") == 6
    assert built == []
    opened = await harness.emu.click(alice, "Tout retourner")
    assert opened.message is not None
    assert "face cachée" not in reply_text(opened)
    labels = [c.get("label") for row in opened.message.components for c in row["components"]]
    assert "Retourner" not in labels
    assert built == [discord.ui.Button, FlipAllButton]  # the click's own handler, read from its custom_id


def _slot(position: int, rarity_index: int, *, owned: bool = True) -> OpeningCard:
    card = catalog().cards[position * 7]
    return OpeningCard(position, True, 100 + position, card, RARITIES[rarity_index], position == 2, owned, 5)


def _old_view(
    opening: Opening, locale: str, waiting: int, confirm: SaleToConfirm | None
) -> list[dict[str, Any]]:
    """The rows discord.py's items wrote for `opening_items`' items, added in the same order."""
    view = discord.ui.View(timeout=None)
    for item in opening_items(opening, locale, waiting, confirm):
        if isinstance(item, Button):
            label = text(item.label, locale)[:80]
            view.add_item(discord.ui.Button(label=label, custom_id=item.custom_id, style=STYLES[item.style]))
            continue
        options = [
            discord.SelectOption(
                label=text(o.label, locale)[:100],
                description=text(o.description, locale)[:100],
                value=o.value,
            )
            for o in item.options
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=item.custom_id, options=options)
        select.placeholder = text(item.placeholder, locale)[:150]
        view.add_item(select)
    return view.to_components()


def _confirm(slot: OpeningCard) -> SaleToConfirm:
    assert slot.card is not None
    assert slot.rarity is not None
    return SaleToConfirm(7, slot.position, slot.card, slot.rarity, 5)


FACE_DOWN = tuple(OpeningCard(p, False) for p in range(6))
HALF = (_slot(0, 2), _slot(1, 5), _slot(2, 1), *FACE_DOWN[3:])  # two worth showing off, one Argent
ALL_UP = tuple(_slot(p, p % len(RARITIES), owned=p != 1) for p in range(6))


@pytest.mark.parametrize(
    ("cards", "waiting", "confirm"),
    [
        (FACE_DOWN, 0, None),
        (HALF, 0, None),
        (HALF, 0, _confirm(HALF[1])),  # the select between the buttons: « Vendre » under the first row
        (ALL_UP, 2, None),
        (ALL_UP, 0, _confirm(ALL_UP[3])),
    ],
)
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_the_openings_rows_are_discord_pys(
    cards: tuple[OpeningCard, ...], waiting: int, confirm: SaleToConfirm | None, locale: str
) -> None:
    opening = Opening(7, "normal", None, 1, cards)
    items = opening_items(opening, locale, waiting, confirm)
    assert any(isinstance(i, Select) for i in items) == any(c.flipped for c in cards)
    expected = json.dumps(_old_view(opening, locale, waiting, confirm))
    assert json.dumps(rows_of(items, locale)) == expected
