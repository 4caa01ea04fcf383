"""How Dinocard cards are named on the platform: their element, type, rarity, cost and capacities, and how
/card shows one. Apart from the facade so the cogs and the battle's rendering import them alone."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from core.settings import SUPPORTED_LOCALES
from engine.dinocard import ELEMENTS, RARITIES, DinocardCard, DinocardCatalog
from services.dinocard.keys import ABILITY_KEYS, ELEMENT_KEYS, RARITY_KEYS, TYPE_KEYS
from services.infra.catalogs import fold
from services.infra.messages import Text, render_text

Stats = tuple[int | None, int | None, int | None]  # a dinoz's éclosion, force and endurance
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
    """One card on a line: name, element, type, cost and, for a dinoz, éclosion/force/endurance; written
    once per card in every language (a preparation page shows ten to thirty, issue 39)."""
    line = _line(*_line_of(card))
    return line if count is None else Text("dinocard.card.copies", {"count": count, "line": line})


def free_line(card: DinocardCard, free: int) -> Text:
    """A card the preparation page offers as bonus, with how many copies may be added: written once per
    card and count in every language, as its line is (the count is a plural, which every page wrote
    again for each of its ten cards, issue 39)."""
    return _free_line(*_line_of(card), free)


def _line_of(card: DinocardCard) -> tuple[str, str, str, str, str, str, Stats | None]:
    stats = (card.eclosion, card.force, card.endurance) if card.type == "dinoz" else None
    return card.name.fr, card.name.en, card.element, card.type, cost_text(card), card.rarity, stats


@lru_cache(maxsize=4096)
def _line(
    fr: str, en: str, element: str, kind: str, cost: str, rarity: str, stats: tuple[int, int, int] | None
) -> Text:
    params: dict[str, Any] = {
        "name": Text.per_locale({"fr": fr, "en": en}),
        "element": ELEMENT_MARKS[element],
        "type": Text(TYPE_KEYS[kind]),
        "cost": cost,
        "rarity": Text(RARITY_KEYS[rarity]),
    }
    if stats is None:
        line = Text("dinocard.card.line", params)
    else:
        eclosion, force, endurance = stats
        params |= {"eclosion": eclosion, "force": force, "endurance": endurance}
        line = Text("dinocard.card.line_dinoz", params)
    return Text.per_locale({locale: render_text(line, locale) for locale in SUPPORTED_LOCALES})


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


@lru_cache(maxsize=4096)
def _free_line(
    fr: str,
    en: str,
    element: str,
    kind: str,
    cost: str,
    rarity: str,
    stats: Stats | None,
    free: int,
) -> Text:
    offered = Text(
        "dinocard.prepare.collection_line",
        {"line": _line(fr, en, element, kind, cost, rarity, stats), "free": free},
    )
    return Text.per_locale({locale: render_text(offered, locale) for locale in SUPPORTED_LOCALES})
