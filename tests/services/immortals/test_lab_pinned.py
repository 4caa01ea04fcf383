"""The Immortal's War lab's duels pinned: winners, lengths and line-ups of the lab's worker for a fixed
set of seeds, on the drawn terrain and on each of the four, as a digest.

The digests were computed on the code before the lab stopped building a whole duel per candidate seed and
sorting the catalog per unit of the practice mirror deck (docs/performance.md, "The immortals AI's
speed"): those are speed changes only, and a lab duel must stay the practice duel of its seed. A change
that means to change the lab's duels (the AI, the mirror deck, the terrain draw) updates them, and says so.
"""

from __future__ import annotations

import hashlib
from functools import cache

import pytest

from engine.immortals import TERRAINS, ImmortalsCatalog, lab_battles
from engine.protocol import PlayerSetup
from engine.rng import derive
from services.immortals.lab import opponent_setup
from services.infra.catalogs import DATA_DIR, load_catalog


@cache
def catalog() -> ImmortalsCatalog:
    return load_catalog(DATA_DIR / "immortals.json", ImmortalsCatalog)


def starter_deck() -> PlayerSetup:
    """The benchmark's deck: the catalog's first eight units at level 1 and the starter spells."""
    units = tuple(c.id for c in catalog().cards[:8])
    spells = [s.id for s in catalog().spells if s.starter]
    return PlayerSetup(seat=0, player_id=1, deck=units, extra={"xp": [0] * 8, "spells": spells})


def grown_deck() -> PlayerSetup:
    """Twelve units of every tier at every level and twelve known spells: eight of them drawn."""
    units = tuple(c.id for c in catalog().cards[4:16])
    xp = [0, 30, 80, 160, 300, 1000, 0, 45, 95, 200, 0, 310]
    spells = [s.id for s in catalog().spells][:12]
    return PlayerSetup(seat=0, player_id=1, deck=units, extra={"xp": xp, "spells": spells})


def digest(deck: PlayerSetup, terrain: str | None, count: int) -> str:
    seeds = [derive(7, "pinned", terrain or "drawn", n) for n in range(count)]
    battles = lab_battles(catalog(), deck, lambda seed: opponent_setup(catalog(), deck, seed), terrain, seeds)
    text = repr([(b.seed, b.won, b.lost, b.length, b.drawn) for b in battles])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


PINNED: dict[str, dict[str | None, str]] = {
    "starter": {
        None: "0a3cefc12f4404d0",
        "foret": "51d4d734b47d7abf",
        "desert": "93591cefc2e11aca",
        "plaine": "33514ef9bc319b6a",
        "marais": "82ea54dbb026e704",
    },
    "grown": {
        None: "5588a3bc57113634",
        "foret": "143a1779a1ba17f5",
        "desert": "920d458a87da905f",
        "plaine": "5053e0fbe2987ac5",
        "marais": "02d9098f9d2d8aa1",
    },
}


@pytest.mark.parametrize("terrain", [None, *TERRAINS])
def test_the_labs_duels_stay_the_duels_they_were(terrain: str | None) -> None:
    assert digest(starter_deck(), terrain, 100) == PINNED["starter"][terrain]
    assert digest(grown_deck(), terrain, 40) == PINNED["grown"][terrain]


def test_the_practice_mirror_has_one_size_whatever_the_seed() -> None:
    """The lab reads a candidate seed's terrain from the sizes of the two decks and known spells, the
    opponent's taken from one seed's mirror (engine/immortals/lab.py, `drawn_on`): the mirror has the
    player's deck size and the starter spells for every seed."""
    starters = sum(s.starter for s in catalog().spells)
    for deck in (starter_deck(), grown_deck()):
        sizes = {
            (len(o.deck), len(o.extra["spells"]))
            for o in (opponent_setup(catalog(), deck, seed) for seed in range(50))
        }
        assert sizes == {(len(deck.deck), starters)}
