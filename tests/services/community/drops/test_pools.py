"""Each game's drop prizes come from its own purchase odds, never better (docs/drops.md): over seeded
draws, the share of each game's rare cards among the cards its drops give stays at its purchase's."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from services.community.drops.pool import DropPrize
from tests.support.registries import every_game

DRAWS = 4_000


def draws(game: str, catalogs: dict[str, Any]) -> list[DropPrize]:
    spec = every_game().get(game)
    assert spec is not None
    assert spec.drops is not None
    rng = random.Random(f"pool:{game}")
    return [spec.drops.draw(rng, catalogs[game]) for _ in range(DRAWS)]


def within(count: int, total: int, chance: float, sigmas: float = 4.0) -> bool:
    sd = (total * chance * (1 - chance)) ** 0.5
    return abs(count - total * chance) <= sigmas * sd


@pytest.mark.parametrize(
    ("game", "rare", "chance"),
    [
        ("hoss", lambda p: p.attrs["rarity"] != "basique", 1 / 10),  # « Argent ou mieux : 1 sur 10 »
        ("choco", lambda p: p.copy.rarity in ("or_1", "or_2"), 89 / 1000),  # Or 1 and Or 2: 55 + 34 ‰
        ("pillz", lambda p: p.copy.stars >= 4, 120 / 1000),  # ★★★★ and ★★★★★: 90 + 30 ‰
        ("dinocard", lambda p: p.copy.rarity == "rare", 5 / 100),
    ],
)
def test_a_drops_cards_are_as_rare_as_a_purchases(
    catalogs: dict[str, Any], game: str, rare: Any, chance: float
) -> None:
    cards = [p for p in draws(game, catalogs) if p.card_id is not None]
    found = sum(1 for p in cards if rare(p))

    assert len(cards) > DRAWS // 2
    assert within(found, len(cards), chance), (found, len(cards))


def test_immortals_war_drops_only_gold() -> None:
    spec = every_game().get("immortals")
    assert spec is not None
    assert spec.drops is not None
    rng = random.Random(1)
    prizes = Counter((p.currency, p.amount) for p in (spec.drops.draw(rng, None) for _ in range(300)))

    assert set(prizes) == {("immortals_gold", 10), ("immortals_gold", 15), ("immortals_gold", 20)}
