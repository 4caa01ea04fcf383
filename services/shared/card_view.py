"""« Voir une carte » under a hand or a line-up: a select of the strip's cards that opens one of them
whole, privately (cogs/shared/cards.py, `CardViewSelect`).

The strip shows the figures (services/community/card_images/figures.py); the select shows what a card
does. Its values are a card's catalog id and the copy drawn, what `/card` could show anyone: nothing a
forged value opens is hidden, and the options are only on the private message of the cards' holder.
"""

from __future__ import annotations

import re
from typing import Any

from core.errors import BadInput
from services.infra.messages import CardStrip, Select, SelectOption, StripCard, Text

VIEW_ID = "cardview:{game}"
_VALUE = re.compile(
    r"^(?P<card>[a-z0-9_-]{1,64})\|(?P<rarity>[a-z0-9_]{0,32})\|(?P<stars>[0-9])\|(?P<holo>[01])$"
)


def value_of(card: StripCard) -> str:
    return f"{card.card_id}|{card.rarity or ''}|{card.stars}|{int(card.holo)}"


def card_of(value: str) -> StripCard:
    """The card and copy a select's value names; a malformed value is refused."""
    found = _VALUE.match(value)
    if found is None:
        raise BadInput()
    return StripCard(found["card"], found["rarity"] or None, int(found["stars"]), found["holo"] == "1")


def viewer(strip: CardStrip, catalog: Any) -> Select:
    """The select under `strip`: one option a card (a card held twice once), named in each language."""
    options: dict[str, SelectOption] = {}
    for card in strip.cards:
        found = catalog.card(card.card_id)
        if found is None or value_of(card) in options:
            continue
        name = Text.per_locale({"fr": found.name.fr, "en": found.name.en})
        options[value_of(card)] = SelectOption(name, value_of(card))
    return Select(
        VIEW_ID.format(game=strip.game), Text("collection.entry.placeholder"), tuple(options.values())
    )
