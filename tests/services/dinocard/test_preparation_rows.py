"""The preparation page's controls written as Discord's rows (issue 39): the same rows discord.py wrote for
the page's items, to the byte, and no discord.py item built for a page (the persistent items registered at
start-up answer the clicks)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from datetime import timedelta
from typing import Any

import discord
import pytest

from cogs.dinocard import preparation as cog
from core.clock import ManualClock
from core.i18n import t
from engine.dinocard import CARD_TYPES, ELEMENTS, DinocardCard, DinocardCatalog
from services.dinocard import DinocardServices
from services.dinocard.keys import ELEMENT_KEYS, TYPE_KEYS
from services.dinocard.preparation import Preparation
from tests.platform.test_control_rows import discord_button
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack


def _select(custom_id: str, options: list[tuple[str, str, bool]], placeholder: str) -> Any:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id,
        options=[discord.SelectOption(label=label, value=value, default=d) for label, value, d in options]
        or [discord.SelectOption(label="-", value="-")],
    )
    select.placeholder = placeholder[:150]
    return select


def items_view(prep: Preparation, cards: Mapping[str, DinocardCard], locale: str) -> discord.ui.View:
    """The page's controls as the cog built them with discord.py's classes."""
    ids = list(cards)
    page = cog.Page(
        ALICE, prep.pack.id, prep.opponent_id, prep.bonus, prep.element, prep.kind, prep.choices.page
    )
    state = page.code(cards)
    view = discord.ui.View(timeout=None)
    if prep.choices.items and len(prep.bonus) < prep.bonus_allowed:
        offered = [
            (o.card.name.get(locale)[:100], str(ids.index(o.card.id)), False) for o in prep.choices.items
        ]
        view.add_item(_select(f"dino:badd:{state}", offered, t("dinocard.prepare.add", locale)))
    if prep.bonus:
        chosen = [(cards[c].name.get(locale)[:100], str(n), False) for n, c in enumerate(prep.bonus)]
        view.add_item(_select(f"dino:brem:{state}", chosen, t("dinocard.prepare.remove", locale)))
    elements = [(t("dinocard.prepare.option_all_elements", locale), "-", False)]
    elements += [(t(ELEMENT_KEYS[e], locale), str(i), e == page.element) for i, e in enumerate(ELEMENTS)]
    kinds = [(t("dinocard.prepare.option_all_types", locale), "-", False)]
    kinds += [(t(TYPE_KEYS[k], locale), str(i), k == page.kind) for i, k in enumerate(CARD_TYPES)]
    view.add_item(_select(f"dino:bel:{state}", elements, t("dinocard.prepare.filter_element", locale)))
    view.add_item(_select(f"dino:bty:{state}", kinds, t("dinocard.prepare.filter_type", locale)))
    prefix = "dino:bpg:" + state.rsplit(":", 1)[0]
    at, pages = prep.choices.page, prep.choices.pages
    view.add_item(
        discord_button(f"{prefix}:{at - 1}", t("dinocard.button.previous", locale), "secondary", at <= 1)
    )
    view.add_item(
        discord_button(f"{prefix}:{at + 1}", t("dinocard.button.next", locale), "secondary", at >= pages)
    )
    launch = f"dino:go:{ALICE}:7:{prep.pack.id}:{prep.opponent_id}:{cog.bonus_code(prep.bonus, cards)}"
    view.add_item(
        discord_button(launch, t("dinocard.prepare.launch", locale), "success", not prep.daily_left)
    )
    return view


async def pages(dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog) -> list[Preparation]:
    """Pages in the states the controls lead to: none chosen, a bonus (the skill's one: no room left),
    filters, another page, no challenge left today."""
    await dino.packs.create(ALICE, "Bois", element_pack(catalog, "bois"))
    await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    await dino.packs.spend(ALICE, "Feu", "bonus", 1)
    theirs = (await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))).pack.id
    clock.advance(timedelta(days=1))
    prepare = dino.battles.prepare
    first = await prepare(ALICE, "Feu", theirs, (), locale="fr")
    assert first.choices.pages > 1
    offered = first.choices.items[0].card.id
    return [
        first,
        await prepare(ALICE, "Feu", theirs, (offered,), locale="fr"),
        await prepare(ALICE, "Feu", theirs, (), element="bois", kind="dinoz", locale="fr"),
        await prepare(ALICE, "Feu", theirs, (), page=2, locale="fr"),
        replace(first, daily_left=0),
    ]


@pytest.mark.parametrize("locale", ["fr", "en-GB"])
async def test_the_pages_rows_are_discord_pys_to_the_byte(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, locale: str
) -> None:
    cards = dino.battles.cards
    for prep in await pages(dino, clock, catalog):
        written = cog.prepare_reply(prep, ALICE, 7, cards, locale)["view"].to_components()
        assert json.dumps(written) == json.dumps(items_view(prep, cards, locale).to_components())


async def test_a_page_builds_no_discord_item(
    dino: DinocardServices, clock: ManualClock, catalog: DinocardCatalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: Counter[str] = Counter()
    for cls in (discord.ui.Select, discord.ui.Button, discord.SelectOption):
        init = cls.__init__

        def counted(
            self: Any, *args: Any, _init: Any = init, _name: str = cls.__name__, **kwargs: Any
        ) -> None:
            built[_name] += 1
            _init(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", counted)
    for prep in await pages(dino, clock, catalog):
        cog.prepare_reply(prep, ALICE, 7, dino.battles.cards, "fr")
    assert built == {}
