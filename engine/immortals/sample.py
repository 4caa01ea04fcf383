"""Random valid players for `sample_setup` (conformance test, golden games, benchmarks, sandbox).

Decks of 4 to 12 units drawn mostly from two to four families (so family bonuses often act), levels 1
to 5 given as experience, copies kept within the identical-card limits, and 0 to 20 known spells.
"""

from __future__ import annotations

import random

from engine.immortals.catalog import MAX_LEVEL, ImmortalsCatalog
from engine.immortals.progress import DECK_MIN, MAX_COPIES_BY_LEVEL
from engine.protocol import PlayerSetup


def xp_for(level: int, level_xp: tuple[int, ...], rng: random.Random) -> int:
    """Some experience that gives exactly `level`."""
    low = 0 if level == 1 else level_xp[level - 2]
    high = level_xp[level - 1] - 1 if level < MAX_LEVEL else low + 50
    return rng.randint(low, high)


def sample_player(catalog: ImmortalsCatalog, rng: random.Random, seat: int) -> PlayerSetup:
    families = sorted({c.family for c in catalog.cards})
    chosen = rng.sample(families, rng.randint(2, 4))
    favoured = sorted(c.id for c in catalog.cards if c.family in chosen)
    everyone = sorted(c.id for c in catalog.cards)
    size = rng.randint(DECK_MIN, 12)
    deck: list[str] = []
    xp: list[int] = []
    top: dict[str, int] = {}
    while len(deck) < size:
        card_id = rng.choice(favoured if rng.random() < 0.75 else everyone)
        level = rng.randint(1, MAX_LEVEL)
        highest = max(level, top.get(card_id, 0))
        if deck.count(card_id) + 1 > MAX_COPIES_BY_LEVEL[highest]:
            continue
        top[card_id] = highest
        deck.append(card_id)
        xp.append(xp_for(level, catalog.level_xp, rng))
    spells = sorted(s.id for s in catalog.spells)
    known = rng.sample(spells, rng.choice((0, 3, 8, 12, len(spells))))
    return PlayerSetup(seat=seat, player_id=seat + 1, deck=tuple(deck), extra={"xp": xp, "spells": known})
