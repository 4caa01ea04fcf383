"""The Pillz AI: legal, randomized but reproducible from its generator, and stronger than simple policies.

Issue 6 asks for at least 70 % wins against a uniformly random policy and at least 55 % against the
even-split policy, over at least 1,000 seeded matches; draws count as not won. Both are asserted: against
random over 1,000 matches (seeds 0-499, each deal played from both seats), against even split over 2,000
(seeds 0-999). That bar is close to what is possible: the AI wins 55.85 % pooled over 6,000 matches (55.8 %
on these seeds), and the exact best response, which knows the even-split bets, won 58.1 % in expectation
with the previous catalog; the larger sample keeps
the noise (one standard error: 1.1 points) from deciding alone (docs/pillz/rules-notes.md, "The AI", has
every measured figure). The matches are shared between two processes (CI has two cores).
"""

from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine.pillz.ai import choose, evaluate, even_split_policy, random_policy
from engine.pillz.catalog import PillzCatalog
from engine.pillz.state import PillzState, Play
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.pillz.helpers import ENGINE, round_, state

Policy = Callable[[PillzState, int, random.Random], Play]
RANDOM_SEEDS = 500  # x 2 seats = 1,000 matches
EVEN_SPLIT_SEEDS = 1000  # x 2 seats = 2,000 matches


@pytest.fixture(scope="module")
def catalog() -> PillzCatalog:
    return load_catalog(DATA_DIR / "pillz.json", PillzCatalog)


def match(catalog: PillzCatalog, seed: int, policies: tuple[Policy, Policy]) -> int | None:
    setup = ENGINE.sample_setup(random.Random(seed), catalog)
    s = ENGINE.new_game(setup.players, seed, setup.options)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    while not s.finished:
        seat = ENGINE.current_players(s)[0]
        s, _ = ENGINE.apply(s, seat, policies[seat](s, seat, rngs[seat]))
    return s.winner


def _wins(opponent: str, seeds: range) -> int:
    """AI wins over `seeds`, each deal played from both seats (mirrored: neither deck nor seat favours it).
    Runs in a worker process, so it loads the catalog and names the opponent instead of receiving them."""
    catalog = load_catalog(DATA_DIR / "pillz.json", PillzCatalog)
    other = {"random": random_policy, "even_split": even_split_policy}[opponent]
    wins = 0
    for seed in seeds:
        wins += match(catalog, seed, (choose, other)) == 0
        wins += match(catalog, seed, (other, choose)) == 1
    return wins


def win_rate(opponent: str, seeds: int) -> float:
    halves = (range(0, seeds // 2), range(seeds // 2, seeds))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        wins = sum(pool.map(_wins, [opponent, opponent], halves))
    return wins / (2 * seeds)


# Statistical tests of a few thousand whole matches: seconds alone, minutes on a loaded shared machine.
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_ai_beats_a_uniformly_random_policy_70_percent() -> None:
    assert win_rate("random", RANDOM_SEEDS) >= 0.70


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_ai_beats_the_even_split_policy_55_percent() -> None:
    assert win_rate("even_split", EVEN_SPLIT_SEEDS) >= 0.55


def test_the_ai_is_random_but_reproducible_from_its_generator() -> None:
    s = state()
    picks = {choose(s, 0, random.Random(seed)) for seed in range(40)}
    assert len(picks) > 3  # not a function of the state alone
    assert choose(s, 0, random.Random(5)) == choose(s, 0, random.Random(5))
    assert all(p in ENGINE.legal_actions(s, 0) for p in picks)


def test_policies_always_play_legal_moves(catalog: PillzCatalog) -> None:
    for seed in range(30):
        setup = ENGINE.sample_setup(random.Random(seed), catalog)
        s = ENGINE.new_game(setup.players, seed, setup.options)
        rng = random.Random(seed)
        policies = (choose, random_policy, even_split_policy)
        while not s.finished:
            seat = ENGINE.current_players(s)[0]
            play = policies[(seed + s.round) % 3](s, seat, rng)
            assert play in ENGINE.legal_actions(s, seat)
            s, _ = ENGINE.apply(s, seat, play)


def test_the_ai_bets_everything_in_the_last_round() -> None:
    s = state()
    for i in range(3):
        leader = ENGINE.lead(s)
        s = round_(s, (s.hands[leader][i].card_id, 2), (s.hands[1 - leader][i].card_id, 2))
    assert s.round == 4
    assert not s.finished
    seat = ENGINE.lead(s)
    bets = Counter(choose(s, seat, random.Random(k)).pillz for k in range(50))
    assert bets.most_common(1)[0][0] == s.pillz[seat]


def test_the_ai_spends_when_a_ko_is_within_reach() -> None:
    """The opponent has 2 PV left: every character of mine KOs it on a win, so the AI bets in this round
    (about as much as the opponent may have bet) rather than saving, and never everything."""
    s, _ = ENGINE.apply(state(life=(2, 12)), 0, Play(card="a0", pillz=3))
    options = dict(evaluate(s, 1))
    best = max(options, key=lambda p: options[p])
    assert best.pillz > 0
    assert (
        options[Play(card="b0", pillz=3)]
        > options[Play(card="b0", pillz=0)]
        > options[Play(card="b0", pillz=12)]
    )


def test_even_split_and_random_policies() -> None:
    s = state()
    assert even_split_policy(s, 0, random.Random(1)).pillz == 3  # 12 pillz / 4 rounds
    bets = {random_policy(s, 0, random.Random(k)).pillz for k in range(200)}
    assert bets == set(range(13))
