"""The lab's Pillz duels (engine/pillz/lab.py): the duel of a seed played by the AI on both seats, its
line-up as the cards present, and an AI that answers the same whatever the leader's secret pillz."""

from __future__ import annotations

import random
from functools import cache

from engine.pillz import PillzCatalog, PillzState, Play, choose
from engine.pillz.lab import lab_battles, play_duel
from services.infra.catalogs import DATA_DIR, load_catalog


@cache
def catalog() -> PillzCatalog:
    return load_catalog(DATA_DIR / "pillz.json", PillzCatalog)


def decks() -> tuple[list[str], list[str]]:
    ids = sorted(c.id for c in catalog().cards if not c.leader)
    rng = random.Random(5)
    return sorted(rng.sample(ids, 8)), sorted(rng.sample(ids, 8))


def test_a_lab_duel_is_the_seeds_duel_played_to_its_end() -> None:
    """« Pour chaque combat, 4 personnages sont tirés au sort parmi ceux de votre Deck préconstruit » and
    « Le combat se déroule en 4 rounds » (a K.O. ends it sooner)."""
    mine, theirs = decks()
    seeds = [1, 2, 3, 4]
    battles = lab_battles(catalog(), mine, lambda seed: theirs, seeds)
    assert battles == lab_battles(
        catalog(), mine, lambda seed: theirs, seeds
    )  # the same seeds, the same duels
    line_ups = set()
    for battle, seed in zip(battles, seeds, strict=True):
        state = play_duel(catalog(), (mine, theirs), seed)
        assert state.finished
        assert battle.seed == seed
        assert (battle.won, battle.lost) == (state.winner == 0, state.winner == 1)
        assert battle.length == len(state.history)
        assert 1 <= battle.length <= 4
        assert len(battle.drawn) == 4
        assert set(battle.drawn) <= set(mine)
        assert battle.drawn == tuple(sorted(f.card_id for f in state.hands[0]))
        line_ups.add(battle.drawn)
    assert len(line_ups) > 1  # the draw depends on the seed


def peeking(state: PillzState, seat: int, rng: random.Random) -> Play:
    """A negative control: answers with as many pillz as the leader secretly bet (what it must not know)."""
    chosen = choose(state, seat, rng)
    bet = state.pending[1] if state.pending is not None else 0
    return chosen.model_copy(update={"pillz": min(bet, state.pillz[seat])})


def twin(rng: random.Random) -> random.Random:
    """A generator at the same point of the same stream: the same draws for a second look."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def _same_whatever_the_bet(policy: object, seeds: range) -> tuple[int, int]:
    """At every answer of lab duels, the answering seat's choice on the duel as it is and with the leader's
    secret pillz replaced by every other count it could have bet: (checked, differed)."""
    assert callable(policy)
    mine, theirs = decks()
    checked = differed = 0
    for seed in seeds:

        def watching(state: PillzState, seat: int, rng: random.Random) -> Play:
            nonlocal checked, differed
            chosen: Play = policy(state, seat, twin(rng))
            if state.pending is not None:
                leader = 1 - seat
                for bet in range(state.pillz[leader] + 1):
                    if bet != state.pending[1]:
                        other = state.model_copy(update={"pending": (state.pending[0], bet)})
                        checked += 1
                        differed += policy(other, seat, twin(rng)) != chosen
            return choose(state, seat, rng)

        play_duel(catalog(), (mine, theirs), seed, watching)
    return checked, differed


def test_the_ai_answers_the_same_whatever_the_leaders_secret_pillz() -> None:
    checked, differed = _same_whatever_the_bet(choose, range(3))
    assert checked > 50
    assert differed == 0


def test_the_check_catches_a_policy_that_peeks_at_the_bet() -> None:
    checked, differed = _same_whatever_the_bet(peeking, range(3))
    assert checked > 50
    assert differed > 0
