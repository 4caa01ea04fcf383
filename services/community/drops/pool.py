"""What a game hands out in a drop, declared by the game itself (`GameSpec.drops`).

The platform never imports a game: each game draws its drop prize with its own purchase odds in its own
services package (`services/<game>/drops.py`) and says what one drop is worth on average, in its own
currency, from the same odds. The platform's bound on what drops give (docs/drops.md, "What drops are
worth") is computed from those figures.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from services.community.card_images.spec import CardCopy
from services.infra.messages import Text


@dataclass(frozen=True)
class DropPrize:
    """One drop's prize as its game drew it: a card (its catalog id, the attributes its minted copy gets,
    the copy its picture shows, its rarity's name) or an amount of one of the game's currencies."""

    card_id: str | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict)
    copy: CardCopy = field(default_factory=CardCopy)
    rarity: Text | None = None
    currency: str | None = None
    amount: int = 0

    def __post_init__(self) -> None:
        if (self.card_id is None) == (self.currency is None):
            raise ValueError("a drop prize is either a card or an amount of a currency")
        if self.currency is not None and self.amount <= 0:
            raise ValueError(f"a currency prize needs a positive amount, got {self.amount}")

    def to_json(self) -> str:
        return json.dumps(
            {
                "card": self.card_id,
                "attrs": dict(self.attrs),
                "copy": [self.copy.rarity, self.copy.stars, self.copy.holo],
                "rarity": None if self.rarity is None else self.rarity.to_json(),
                "currency": self.currency,
                "amount": self.amount,
            },
            sort_keys=True,
        )

    @staticmethod
    def from_json(raw: str) -> DropPrize:
        data = json.loads(raw)
        rarity, stars, holo = data["copy"]
        return DropPrize(
            card_id=data["card"],
            attrs=data["attrs"],
            copy=CardCopy(rarity, int(stars), bool(holo)),
            rarity=None if data["rarity"] is None else Text.from_json(data["rarity"]),
            currency=data["currency"],
            amount=int(data["amount"]),
        )


@dataclass(frozen=True)
class DropPool:
    """A game's drops: `draw(rng, catalog)` draws one prize with the game's purchase odds (never better);
    a card prize is worth `card_worth` in `value_currency` (its share of the price of the purchase that
    gives it), an amount of that currency its amount; `expected_value(catalog)` is what one drop is worth
    on average, computed from the same odds as `draw`."""

    draw: Callable[[random.Random, Any], DropPrize]
    expected_value: Callable[[Any], Fraction]
    value_currency: str
    card_worth: Fraction = Fraction(0)

    def worth(self, prize: DropPrize) -> Fraction:
        """One prize's worth in `value_currency` (a currency of the game other than it is not valued)."""
        if prize.card_id is not None:
            return self.card_worth
        if prize.currency != self.value_currency:
            raise ValueError(f"a prize in {prize.currency} is not valued in {self.value_currency}")
        return Fraction(prize.amount)
