"""A small built-in catalog of normal wizards and random legal decks, for `sample_setup` without a catalog.

Stats stay inside the catalog's ranges (catalog.NORMAL_PA / NORMAL_PV) so the sample is a valid catalog.
"""

from __future__ import annotations

import random
from functools import cache

from engine.cards import LocalizedText
from engine.choco.catalog import NORMAL_PA, NORMAL_PV, RARITIES, ChocoCard, ChocoCatalog
from engine.choco.state import DECK_SIZE, MAX_COPIES


@cache
def sample_catalog() -> ChocoCatalog:
    """Eighteen normal wizards, three per rarity, with their rarity's lowest, middle and highest stats."""
    cards = []
    for rarity in RARITIES:
        (pa_lo, pa_hi), (pv_lo, pv_hi) = NORMAL_PA[rarity], NORMAL_PV[rarity]
        for i, (pa, pv) in enumerate(
            ((pa_lo, pv_lo), ((pa_lo + pa_hi) // 2, (pv_lo + pv_hi) // 2), (pa_hi, pv_hi))
        ):
            name = f"Sorcier {rarity} {i}"
            cards.append(
                ChocoCard(
                    id=f"{rarity.replace('_', '-')}-{i}",
                    name=LocalizedText(fr=name, en=name),
                    type="normal",
                    rarity=rarity,
                    pa=pa,
                    pv=pv,
                )
            )
    return ChocoCatalog(game="choco", version=1, cards=tuple(cards))


def sample_deck(catalog: ChocoCatalog, rng: random.Random) -> tuple[str, ...]:
    """24 normal wizards, at most two copies each, drawn at random from the catalog."""
    ids = sorted(c.id for c in catalog.cards if c.type == "normal")
    pool = [card_id for card_id in ids for _ in range(MAX_COPIES)]
    return tuple(sorted(rng.sample(pool, DECK_SIZE)))
