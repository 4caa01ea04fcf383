"""How Chocobataille's cards are named on the platform: the message keys of their types, rarities and
effect triggers, and how /card shows a card.

Apart from the game's facade (`services/choco/__init__.py`) so the services that render cards import
these names without importing the facade that builds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import LocalizedText
from engine.choco import ChocoCard
from services.infra.messages import Text

TYPE_KEYS: Mapping[str, str] = {
    "normal": "choco.type.normal",
    "effect": "choco.type.effect",
    "pure": "choco.type.pure",
}
RARITY_KEYS: Mapping[str, str] = {
    "bronze_1": "choco.rarity.bronze_1",
    "bronze_2": "choco.rarity.bronze_2",
    "argent_1": "choco.rarity.argent_1",
    "argent_2": "choco.rarity.argent_2",
    "or_1": "choco.rarity.or_1",
    "or_2": "choco.rarity.or_2",
}
TRIGGER_KEYS: Mapping[str, str] = {
    "on_place": "choco.trigger.on_place",
    "continuous": "choco.trigger.continuous",
    "from_hand": "choco.trigger.from_hand",
}


def localized(text: LocalizedText, locale: str) -> Text:
    """A catalog text (already in both languages) in the reader's language."""
    return Text.raw(text.get(locale))


def card_fields(card: Any, _catalog: Any, locale: str) -> list[tuple[Text, Text]]:
    assert isinstance(card, ChocoCard)
    fields = [
        (Text("choco.label.type"), Text(TYPE_KEYS[card.type])),
        (Text("choco.label.rarity"), Text(RARITY_KEYS[card.rarity])),
    ]
    if card.pa is not None and card.pv is not None:
        fields += [
            (Text("choco.label.pa"), Text.raw(str(card.pa))),
            (Text("choco.label.pv"), Text.raw(str(card.pv))),
        ]
    if card.effect is not None:
        effect = card.effect
        value = Text(
            "choco.effect_value",
            {
                "name": localized(effect.name, locale),
                "trigger": Text(TRIGGER_KEYS[effect.trigger]),
                "text": localized(effect.text, locale),
            },
        )
        fields.append((Text("choco.label.effect"), value))
    return fields
