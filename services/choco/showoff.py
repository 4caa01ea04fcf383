"""Which Chocobataille pulls may be shown off in public (« Montrer », services/shared/showoff.py): a
frog's card of the top level, Or 1 or Or 2 (« Or or better » read for this game: docs/card-images.md)."""

from __future__ import annotations

from engine.choco import ChocoCard
from services.choco.card_image import CARD_ART
from services.choco.economy import GAME_KEY
from services.choco.names import RARITY_KEYS
from services.infra.messages import Text
from services.shared.showoff import counted_show_off

SHOWN_RARITIES = frozenset({"or_1", "or_2"})


def rare(card: ChocoCard) -> Text | None:
    return Text(RARITY_KEYS[card.rarity]) if card.rarity in SHOWN_RARITIES else None


show_off = counted_show_off(GAME_KEY, rare, CARD_ART)
