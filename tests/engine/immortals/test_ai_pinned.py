"""The AI's choices, pinned: a speed-up of `ai.py` may not change one of them.

The lab (engine/immortals/lab.py) plays duels with the AI on both seats, a `random.Random` per choice;
its figures, and every practice duel a player replays, are the AI's choices. `DIGEST` is the sha256 of
every choice made in `DUELS` seeded duels played exactly as a lab plays them (`play_duel`: the AI on
both seats, the service's generators), on `sample_setup` deals (levels 1 to 5, family bonuses, 0 to
every known spell, the four terrains). It was computed on the AI before it was made faster (the planner
that recomputed every fight's law for each call), and must stay equal: a cache, a pruned option or a
reordered sum that moves one float enough to turn a comparison changes it.
"""

from __future__ import annotations

import hashlib
import random

from engine.immortals.ai import choose, forget
from engine.immortals.lab import play_duel
from engine.immortals.state import Choose, ImmortalsState
from tests.engine.immortals.helpers import ENGINE, catalog

DUELS = 300
DIGEST = "3bf26c3121c946eb06e8f82664465548369892f429bf337054cf0d03350d2f04"


def choices_digest(duels: int) -> tuple[str, int]:
    """The sha256 of every choice of `duels` lab duels (seeds 0 to duels - 1), and how many there were."""
    digest = hashlib.sha256()
    made = 0

    def recording(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
        nonlocal made
        chosen = choose(state, seat, rng)
        digest.update(f"{state.round}:{seat}:{chosen.unit}:{chosen.spell};".encode())
        made += 1
        return chosen

    for seed in range(duels):
        setup = ENGINE.sample_setup(random.Random(seed), catalog())
        start = ENGINE.new_game(setup.players, seed, setup.options)
        end = play_duel(start, seed, recording)
        digest.update(f"{seed}:{end.winner}:{end.vitality};".encode())
    return digest.hexdigest(), made


def test_the_ais_choices_in_lab_duels_are_the_pinned_ones() -> None:
    digest, made = choices_digest(DUELS)
    assert made > 6 * DUELS  # most duels go the four rounds: two choices each
    assert digest == DIGEST


def test_a_decision_chooses_as_it_would_with_nothing_kept_from_the_rounds_before() -> None:
    """A seat's decisions share a table through the duel (`ai._Table`: numbers, fights' values): a cache,
    so a duel whose every choice starts from empty tables, as in a fresh process, makes the same
    choices as one whose tables were kept from its rounds before (heals at another vitality, foes
    that have fought since) and from the duel before it."""

    def cold(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
        forget()
        return choose(state, seat, rng)

    for seed in range(40):
        setup = ENGINE.sample_setup(random.Random(seed), catalog())
        start = ENGINE.new_game(setup.players, seed, setup.options)
        kept = play_duel(start, seed, choose)  # with the tables of the duel before's last choices
        assert kept.history == play_duel(start, seed, cold).history, seed
