"""A small built-in catalog (normal wizards, effect wizards, pure effects) and random legal decks, for
tests that pass it as their catalog (the engine never falls back to it).

Stats stay inside the catalog's ranges (catalog.NORMAL_PA / NORMAL_PV) so the sample is a valid catalog.
"""

from __future__ import annotations

import random
from functools import cache

from engine.cards import LocalizedText
from engine.choco.catalog import (
    EFFECT_PA,
    EFFECT_PV,
    NORMAL_PA,
    NORMAL_PV,
    RARITIES,
    ChocoCard,
    ChocoCatalog,
    Effect,
    Trigger,
)
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
    cards += [_effect_card(i, *spec) for i, spec in enumerate(_EFFECTS)]
    return ChocoCatalog(game="choco", version=1, cards=tuple(cards))


# (trigger, steps, duration, stays): every step kind, trigger and target class appears at least once.
_EFFECTS: tuple[tuple[Trigger, list[dict[str, object]], int | None, bool], ...] = (
    ("on_place", [{"kind": "damage", "target": "random_enemy", "amount": 2}], None, False),
    (
        "on_place",
        [
            {"kind": "modify", "target": "ally", "pa": 1, "pv": 1, "turns": 1},
            {"kind": "protect", "target": "ally", "turns": 1},
        ],
        None,
        False,
    ),
    ("continuous", [{"kind": "heal", "target": "all_allies", "amount": 1}], 2, False),
    ("continuous", [{"kind": "stun", "target": "random_enemy", "turns": 1}], None, False),
    ("from_hand", [{"kind": "damage", "target": "enemy", "amount": 3}], None, False),
    ("from_hand", [{"kind": "draw", "count": 1}, {"kind": "discard", "count": 1}], None, False),
    ("from_hand", [{"kind": "mill", "count": 2}, {"kind": "recall", "count": 1}], None, False),
    (
        "from_hand",
        [
            {"kind": "destroy", "target": "enemy_reserve"},
            {"kind": "move", "target": "enemy", "to": "reserve"},
        ],
        None,
        False,
    ),
    ("from_hand", [{"kind": "extra_summon", "count": 1}, {"kind": "redraw"}], None, False),
    ("from_hand", [{"kind": "modify", "target": "all_enemies", "pa": -1, "pv": 0, "turns": 2}], 2, True),
)


def _effect_card(
    i: int, trigger: Trigger, steps: list[dict[str, object]], duration: int | None, stays: bool
) -> ChocoCard:
    rarity = RARITIES[i % len(RARITIES)]
    name = f"Effet {i}"
    text = LocalizedText(fr=name, en=name)
    effect = Effect.model_validate(
        {"name": text, "text": text, "trigger": trigger, "steps": steps, "duration": duration, "stays": stays}
    )
    if trigger == "from_hand":
        return ChocoCard(id=f"pure-{i}", name=text, type="pure", rarity=rarity, effect=effect)
    pa, pv = EFFECT_PA[rarity][0], EFFECT_PV[rarity][0]
    return ChocoCard(id=f"effect-{i}", name=text, type="effect", rarity=rarity, pa=pa, pv=pv, effect=effect)


def sample_deck(catalog: ChocoCatalog, rng: random.Random) -> tuple[str, ...]:
    """24 cards, at most two copies each, drawn at random from the catalog (effect cards included)."""
    ids = sorted(c.id for c in catalog.cards)
    pool = [card_id for card_id in ids for _ in range(MAX_COPIES)]
    return tuple(sorted(rng.sample(pool, DECK_SIZE)))
