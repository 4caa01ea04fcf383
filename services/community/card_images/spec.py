"""What a game declares to have its cards drawn: its layout and how a copy is coloured.

A game sets `GameSpec.card_art = CardArt(...)` in `services/<game>/__init__.py`, with its layout in its
own `services/<game>/card_image.py` built on `services.community.card_images.draw`; the platform finds it
through the game registry, so a new game edits no shared file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.community.card_images.draw import Audit, Canvas, Palette


@dataclass(frozen=True)
class CardCopy:
    """Which copy of a card is drawn. `rarity` None: the card's own rarity, or a game without copies."""

    rarity: str | None = None
    stars: int = 0
    holo: bool = False


# (card, its loaded catalog, the copy, the reader's language, audit) -> the drawn card. `audit` asks the
# canvas to record where each text's ink went (tests; it costs a second drawing of each text), or with
# `draw.TEXTS` only the texts, without drawing (`draw.Audit`).
Layout = Callable[[Any, Any, CardCopy, str, Audit], Canvas]


@dataclass(frozen=True)
class CardArt:
    layout: Layout
    # The copy /card shows for a card (HOSS: a Basique 0★; Chocobataille: the card's rarity...).
    default_copy: Callable[[Any], CardCopy]
    # The embed colour of a copy, from its rarity.
    color: Callable[[Any, CardCopy], int]
    # The colours of a face-down card of the game.
    back: Palette
    # Raised when the layout changes, so the cache does not serve images drawn by an older one.
    version: int = 1
    # How much a card is prized, for the best cards a profile shows (its rarity or tier; more is better).
    worth: Callable[[Any], int] = lambda _card: 0
