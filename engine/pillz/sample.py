"""A small built-in catalog (three clans, every leader and character ability) and random legal decks,
for tests that pass it as their catalog (the engine never falls back to it).

Stats stay inside catalog.POWER_RANGE / DAMAGE_RANGE so the sample is a valid `PillzCatalog`.
"""

from __future__ import annotations

import random
from functools import cache

from engine.cards import LocalizedText
from engine.pillz.catalog import DAMAGE_RANGE, POWER_RANGE, Ability, Clan, PillzCard, PillzCatalog
from engine.pillz.state import HAND_SIZE

# (clan, leader ability kind, leader value, character abilities (kind, value) in card order)
_CLANS: tuple[tuple[str, str, int, tuple[tuple[str, int], ...]], ...] = (
    ("ashigaru", "counter_attack", 0, (("power_bonus", 2), ("cancel_ability", 1))),
    ("corsaires", "clan_power", 1, (("damage_bonus", 2), ("drain_pillz", 2))),
    ("moines", "blessing", 3, (("heal_on_win", 2), ("reduce_damage", 2))),
    ("alchimistes", "war_chest", 2, (("pillz_on_loss", 2),)),
)


def _text(text: str) -> LocalizedText:
    return LocalizedText(fr=text, en=text)


@cache
def sample_catalog() -> PillzCatalog:
    """Per clan: a 3★ leader, one character per stars 1 to 5, and its character abilities on 2★ cards."""
    cards: list[PillzCard] = []
    for clan, leader_kind, leader_value, abilities in _CLANS:
        cards.append(
            PillzCard(
                id=f"{clan}-leader",
                name=_text(f"Chef {clan}"),
                clan=clan,
                stars=3,
                power=POWER_RANGE[3][0],
                damage=DAMAGE_RANGE[3][0],
                leader=True,
                ability=Ability(kind=leader_kind, value=leader_value, name=_text(leader_kind)),
            )
        )
        for stars in range(1, 6):
            (p_lo, p_hi), (d_lo, d_hi) = POWER_RANGE[stars], DAMAGE_RANGE[stars]
            cards.append(
                PillzCard(
                    id=f"{clan}-{stars}",
                    name=_text(f"{clan} {stars}"),
                    clan=clan,
                    stars=stars,
                    power=(p_lo + p_hi) // 2,
                    damage=(d_lo + d_hi) // 2,
                )
            )
        for i, (kind, value) in enumerate(abilities):
            cards.append(
                PillzCard(
                    id=f"{clan}-ability-{i}",
                    name=_text(f"{clan} {kind}"),
                    clan=clan,
                    stars=2,
                    power=POWER_RANGE[2][0],
                    damage=DAMAGE_RANGE[2][0],
                    ability=Ability(kind=kind, value=value, name=_text(kind)),
                )
            )
    clans = tuple(Clan(id=clan, name=_text(clan)) for clan, *_ in _CLANS)
    return PillzCatalog(game="pillz", version=1, clans=clans, cards=tuple(cards))


def sample_deck(catalog: PillzCatalog, rng: random.Random) -> tuple[str, ...]:
    """4 to 7 distinct characters, with a leader half the time, so small decks often draw their leader."""
    leaders = sorted(c.id for c in catalog.cards if c.leader)
    others = sorted(c.id for c in catalog.cards if not c.leader)
    size = rng.randint(HAND_SIZE, HAND_SIZE + 3)
    deck = [rng.choice(leaders)] if leaders and rng.random() < 0.5 else []
    deck += rng.sample(others, min(len(others), size - len(deck)))
    return tuple(sorted(deck))
