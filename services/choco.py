"""Chocobataille on the platform: its catalog and how /card shows its cards.

Only the catalog so far (engine/choco/catalog.py, data/choco.json); currencies, the engine and the
game's services come with the next issues.
"""

from __future__ import annotations

from typing import Any

from engine.cards import LocalizedText
from engine.choco.catalog import ChocoCard, ChocoCatalog
from services.games import GameSpec
from services.messages import Text

TYPE_KEYS = {
    "normal": "choco.type.normal",
    "effect": "choco.type.effect",
    "pure": "choco.type.pure",
}
RARITY_KEYS = {
    "bronze_1": "choco.rarity.bronze_1",
    "bronze_2": "choco.rarity.bronze_2",
    "argent_1": "choco.rarity.argent_1",
    "argent_2": "choco.rarity.argent_2",
    "or_1": "choco.rarity.or_1",
    "or_2": "choco.rarity.or_2",
}
TRIGGER_KEYS = {
    "on_place": "choco.trigger.on_place",
    "continuous": "choco.trigger.continuous",
    "from_hand": "choco.trigger.from_hand",
}


def localized(text: LocalizedText, locale: str) -> Text:
    """A catalog text (already in both languages) in the reader's language."""
    return Text.raw(text.get(locale))


def card_fields(card: Any, locale: str) -> list[tuple[Text, Text]]:
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


GAME = GameSpec(
    key="choco",
    name_key="choco.name",
    command_group="choco",
    catalog_model=ChocoCatalog,
    card_fields=card_fields,
)
