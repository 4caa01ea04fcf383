"""The AI's choices pinned: lab duels played by `choose` on both seats, every choice hashed.

The digest below was computed on the AI as it was before its speed-ups (the exact search of
engine/pillz/search.py and the round-1 evaluator of engine/pillz/ai.py as they stood); each speed-up
must leave it unchanged. A faster AI that chooses differently, even once, fails here: the lab's figures
and the practice duels it answers in would no longer be those of the documented AI.

The duels are played exactly as the lab plays them (`engine.pillz.lab.play_duel`: the same engine, a
`random.Random(f"{seed}:{version}")` per choice), with decks from the real catalog drawn by the engine's
`sample_setup` (leaders half the time), so Trésor de guerre, Bénédiction and every ability are met.
"""

from __future__ import annotations

import hashlib
import random
from functools import cache

from engine.pillz import ENGINE, PillzCatalog, PillzState, Play, choose
from engine.pillz.lab import play_duel
from services.infra.catalogs import DATA_DIR, load_catalog

DUELS = 200
PINNED = "d848e148448073b007583cee347555c915304bfd09fce1acc4dc23c595dde64b"


@cache
def catalog() -> PillzCatalog:
    return load_catalog(DATA_DIR / "pillz.json", PillzCatalog)


def digest(seeds: range) -> str:
    """The sha256 of every choice of the lab duels of `seeds` (seat, round, character, pillz), in order."""
    choices = hashlib.sha256()

    def recording(state: PillzState, seat: int, rng: random.Random) -> Play:
        play = choose(state, seat, rng)
        choices.update(f"{seat}:{state.round}:{play.card}:{play.pillz};".encode())
        return play

    for seed in seeds:
        setup = ENGINE.sample_setup(random.Random(seed), catalog())
        decks = (setup.players[0].deck, setup.players[1].deck)
        state = play_duel(catalog(), decks, seed, recording)
        choices.update(f"|{state.winner}|".encode())
    return choices.hexdigest()


def test_the_ais_choices_are_those_pinned_before_its_speed_ups() -> None:
    assert digest(range(DUELS)) == PINNED
