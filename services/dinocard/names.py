"""How Dinocard cards are named on the platform: their element, type, rarity, cost and capacities, and how
/card shows one. Apart from the facade so the cogs and the battle's rendering import them alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.dinocard import ELEMENTS, RARITIES, DinocardCard, DinocardCatalog
from services.dinocard.keys import ABILITY_KEYS, ELEMENT_KEYS, RARITY_KEYS, TYPE_KEYS
from services.infra.catalogs import fold
from services.infra.messages import Text

ELEMENT_MARKS = {"feu": "🔥", "bois": "🌳", "eau": "💧", "foudre": "⚡", "ciel": "☁️"}


def collection_order(locale: str | None) -> Callable[[DinocardCard], tuple[int, int, str, str]]:
    """How a list of a player's cards is sorted (the collection, the preparation page's free cards): the
    commonest first, then by element, then by name in the reader's language."""

    def order(card: DinocardCard) -> tuple[int, int, str, str]:
        return (
            RARITIES.index(card.rarity),
            ELEMENTS.index(card.element),
            fold(card.name.get(locale)),
            card.id,
        )

    return order


def cost_text(card: DinocardCard) -> str:
    """Bubbles: coloured of the card's element, then grey ones (⚪)."""
    return ELEMENT_MARKS[card.element] * card.cost.colored + "⚪" * card.cost.grey or "0"


def abilities_text(card: DinocardCard) -> Text:
    items = [Text(ABILITY_KEYS[a.kind], {"value": a.value}) for a in card.abilities]
    return Text.lines(items) if items else Text("dinocard.card.no_ability")


def card_line(card: DinocardCard, count: int | None = None) -> Text:
    """One card on a line: name, element, type, cost and, for a dinoz, éclosion/force/endurance."""
    params: dict[str, Any] = {
        "name": Text.per_locale({"fr": card.name.fr, "en": card.name.en}),
        "element": ELEMENT_MARKS[card.element],
        "type": Text(TYPE_KEYS[card.type]),
        "cost": cost_text(card),
        "rarity": Text(RARITY_KEYS[card.rarity]),
    }
    if card.type == "dinoz":
        params |= {"eclosion": card.eclosion, "force": card.force, "endurance": card.endurance}
        line = Text("dinocard.card.line_dinoz", params)
    else:
        line = Text("dinocard.card.line", params)
    return line if count is None else Text("dinocard.card.copies", {"count": count, "line": line})


def card_fields(card: Any, catalog: Any, locale: str) -> list[tuple[Text, Text]]:
    assert isinstance(card, DinocardCard)
    assert isinstance(catalog, DinocardCatalog)
    fields = [
        (Text("dinocard.label.element"), Text(ELEMENT_KEYS[card.element])),
        (Text("dinocard.label.type"), Text(TYPE_KEYS[card.type])),
        (Text("dinocard.label.rarity"), Text(RARITY_KEYS[card.rarity])),
        (Text("dinocard.label.cost"), Text.raw(cost_text(card))),
    ]
    if card.type == "dinoz":
        stats = f"{card.eclosion} / {card.force} / {card.endurance}"
        fields.append((Text("dinocard.label.stats"), Text.raw(stats)))
    fields.append((Text("dinocard.label.abilities"), abilities_text(card)))
    return fields
