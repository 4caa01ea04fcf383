"""Which Pillz pulls may be shown off in public (« Montrer », services/shared/showoff.py): a pack's
character of 4★ or 5★, the two rarest star counts (12 % of draws, like HOSS's Or or better: the reading
is in docs/card-images.md)."""

from __future__ import annotations

from engine.pillz import PillzCard
from services.infra.messages import Text
from services.pillz.card_image import CARD_ART
from services.pillz.economy import GAME_KEY
from services.pillz.names import stars_text
from services.shared.showoff import counted_show_off

SHOWN_FROM_STARS = 4


def rare(card: PillzCard) -> Text | None:
    return Text.raw(stars_text(card.stars)) if card.stars >= SHOWN_FROM_STARS else None


show_off = counted_show_off(GAME_KEY, rare, CARD_ART)
