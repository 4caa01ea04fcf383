"""Random valid setups for the conformance test, the golden games, the benchmark and the sandbox.

A sampled pack holds the cards of two elements (a one-colour pack pays its costs; a five-colour one
rarely does), most often 20 to 30 cards, sometimes up to 100; skills and bonus cards vary so that the
random battles meet every rule (the life skill, Stratégie's kept cards, bonus cards). Seat 1 is a dojo
master now and then.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.dinocard.catalog import ELEMENTS, DinocardCatalog
from engine.dinocard.packs import MAX_COPIES, PACK_MAX, PACK_MIN
from engine.dinocard.skills import Skills, bonus_cards
from engine.protocol import PlayerSetup


def random_pack(catalog: DinocardCatalog, rng: random.Random, size: int) -> tuple[str, ...]:
    """`size` cards (at most 3 of each) of two elements drawn at random."""
    elements = rng.sample(ELEMENTS, 2)
    pool = sorted(card.id for card in catalog.cards if card.element in elements)
    if len(pool) * MAX_COPIES < size:  # a tiny test catalog: any element
        pool = sorted(catalog.ids())
    counts: Counter[str] = Counter()
    pack: list[str] = []
    while len(pack) < size:
        card = rng.choice(pool)
        if counts[card] < MAX_COPIES:
            counts[card] += 1
            pack.append(card)
    return tuple(pack)


def random_skills(rng: random.Random) -> Skills:
    points = rng.choice((0, 0, 1, 3, 6, 10))
    spent = Counter(rng.choice(("daily", "life", "strategy", "bonus", "perception")) for _ in range(points))
    return Skills(**spent)


def random_player(catalog: DinocardCatalog, rng: random.Random, seat: int) -> PlayerSetup:
    size = rng.randint(PACK_MIN, 30) if rng.random() < 0.85 else rng.randint(31, PACK_MAX)
    pack = random_pack(catalog, rng, size)
    skills = random_skills(rng)
    counts = Counter(pack)
    spare = sorted(card.id for card in catalog.cards if counts[card.id] < MAX_COPIES)
    bonus = rng.sample(spare, min(bonus_cards(skills), len(spare), rng.randint(0, 3)))
    extra = {"skills": skills.model_dump(), "bonus": bonus}
    return PlayerSetup(seat=seat, player_id=seat + 1, deck=pack, extra=extra)


def sample_players(catalog: DinocardCatalog, rng: random.Random) -> tuple[PlayerSetup, PlayerSetup]:
    challenger = random_player(catalog, rng, 0)
    if catalog.masters and rng.random() < 0.25:
        master = rng.choice(catalog.masters)
        return challenger, PlayerSetup(
            seat=1, player_id=2, deck=master.pack, extra={"skills": master.skills.model_dump()}
        )
    return challenger, random_player(catalog, rng, 1)
