"""The AI's choices pinned: lab duels played by `choose` on both seats, every choice hashed; the same for
`choose_quick` (the one-round evaluator in every round, for the moves made inside a transaction), whose
rounds 2 to 4 value the rest of the duel by branches `choose` never takes.

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

from engine.pillz import ENGINE, PillzCatalog, PillzState, Play, choose, choose_quick
from engine.pillz.ai import evaluate
from engine.pillz.lab import Policy, play_duel
from engine.pillz.search import exact_values
from services.infra.catalogs import DATA_DIR, load_catalog

DUELS = 200
PINNED = "d848e148448073b007583cee347555c915304bfd09fce1acc4dc23c595dde64b"
QUICK_PINNED = "4b810d4b58ff6a01ac8d58d3bb66561ea7f20832614e56348033118695fcfedb"
VALUE_DUELS = 20
VALUES_PINNED = "5364387bc11b30aa4706e9bb4564e2c70dac5d35139815ed05d65e8f8727f685"


@cache
def catalog() -> PillzCatalog:
    return load_catalog(DATA_DIR / "pillz.json", PillzCatalog)


def digest(seeds: range, policy: Policy = choose) -> str:
    """The sha256 of every choice of the lab duels of `seeds` (seat, round, character, pillz), in order."""
    choices = hashlib.sha256()

    def recording(state: PillzState, seat: int, rng: random.Random) -> Play:
        play = policy(state, seat, rng)
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


def test_the_quick_ais_choices_are_those_pinned_before_its_speed_ups() -> None:
    assert digest(range(DUELS), choose_quick) == QUICK_PINNED


def values_digest(seeds: range) -> str:
    """The sha256 of every option's value, to the bit (`float.hex`), that `evaluate` and (from round 2)
    `exact_values` give at each choice of the lab duels of `seeds`: a choice drawn from a softmax
    survives a change in the last bits of a value, this does not."""
    values = hashlib.sha256()

    def recording(state: PillzState, seat: int, rng: random.Random) -> Play:
        found = evaluate(state, seat) + (exact_values(state, seat) if state.round > 1 else [])
        values.update(";".join(f"{p.card}:{p.pillz}:{v.hex()}" for p, v in found).encode())
        return choose(state, seat, rng)

    for seed in seeds:
        setup = ENGINE.sample_setup(random.Random(seed), catalog())
        play_duel(catalog(), (setup.players[0].deck, setup.players[1].deck), seed, recording)
    return values.hexdigest()


def test_the_ais_values_are_those_pinned_before_its_speed_ups_to_the_bit() -> None:
    assert values_digest(range(VALUE_DUELS)) == VALUES_PINNED
