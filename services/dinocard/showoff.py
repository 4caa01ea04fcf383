"""Which Dinocard pulls may be shown off in public (« Montrer », services/shared/showoff.py): a booster's
card of rarity rare, the game's top rarity (docs/card-images.md)."""

from __future__ import annotations

from engine.dinocard import DinocardCard
from services.dinocard.card_image import CARD_ART
from services.dinocard.economy import GAME_KEY
from services.dinocard.keys import RARITY_KEYS
from services.infra.messages import Text
from services.shared.showoff import counted_show_off

SHOWN_RARITY = "rare"


def rare(card: DinocardCard) -> Text | None:
    return Text(RARITY_KEYS[card.rarity]) if card.rarity == SHOWN_RARITY else None


show_off = counted_show_off(GAME_KEY, rare, CARD_ART)
