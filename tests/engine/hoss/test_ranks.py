"""Ranked battles' rules: the rulebook's rank table, the 3-highest window, the AI's decks per rank (valid
for the engine over many seeds, holding exactly the ranks and rarities the rank allows) and the rewards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.hoss.ai import strong_policy
from engine.hoss.catalog import BuffCard, CreatureCard, HossCatalog
from engine.hoss.deck import MAX_DEFENDER_LINES, parse_setup
from engine.hoss.ranks import (
    FLAWLESS_BONUS_PCT,
    MAX_RANK,
    RANKS,
    Reward,
    battle_reward,
    highest_unlocked,
    milestone_gold,
    opponent_setup,
    playable_ranks,
    rank_spec,
)
from engine.hoss.simulate import simulate
from services.infra.catalogs import DATA_DIR, load_catalog

SEEDS_PER_RANK = 150


@pytest.fixture(scope="module")
def catalog() -> HossCatalog:
    return load_catalog(DATA_DIR / "hoss.json", HossCatalog)


def test_the_rank_table_is_the_rulebooks() -> None:
    assert MAX_RANK == 9
    assert [(s.rank, s.win_gold, s.loss_gold) for s in RANKS] == [
        (r, 45 * r, 5 * r) for r in range(1, 10)
    ]  # 45/5, 90/10, ... 405/45
    # who the AI fields: Rang 1 only, up to Rang 2, up to the Maître
    assert [s.top_rank for s in RANKS] == [1, 1, 2, 2, 3, 1, 2, 2, 3]
    assert RANKS[0].rarities == ("basique", "argent")
    assert RANKS[1].rarities == ("argent", "or")
    assert RANKS[6].rarities == ("diamant", "divin")
    for divine in (6, 8, 9):  # "Divin 5★"
        assert (rank_spec(divine).rarities, rank_spec(divine).stars) == (("divin",), (5, 5))
    with pytest.raises(ValueError, match=r"battle rank must be 1\.\.9"):
        rank_spec(10)


@pytest.mark.parametrize(
    ("wins", "highest", "playable"),
    [
        ({}, 1, (1,)),
        ({1: 9}, 1, (1,)),
        ({1: 10}, 2, (1, 2)),
        ({1: 10, 2: 10}, 3, (1, 2, 3)),
        ({1: 10, 2: 10, 3: 10}, 4, (2, 3, 4)),  # unlocking Rang 4 closes Rang 1
        ({1: 12, 2: 30, 3: 10, 4: 10, 5: 9}, 5, (3, 4, 5)),
        ({r: 10 for r in range(1, 10)}, 9, (7, 8, 9)),
        ({2: 50, 3: 50}, 1, (1,)),  # wins higher up cannot skip Rang 1's ten
    ],
)
def test_each_rank_unlocks_after_ten_wins_and_only_the_three_highest_are_playable(
    wins: dict[int, int], highest: int, playable: tuple[int, ...]
) -> None:
    assert highest_unlocked(wins) == highest
    assert playable_ranks(wins) == playable


@pytest.mark.parametrize("rank", range(1, 10))
def test_opponent_decks_are_valid_and_follow_the_rank(catalog: HossCatalog, rank: int) -> None:
    spec = rank_spec(rank)
    cards = {c.id: c for c in catalog.cards}
    creatures = {c.id: c for c in catalog.cards if isinstance(c, CreatureCard)}
    lines_seen: Counter[str] = Counter()
    for seed in range(SEEDS_PER_RANK):
        setup = opponent_setup(catalog, rank, random.Random(seed))
        deck = parse_setup(setup, catalog)  # the engine accepts it
        assert setup.seat == 1
        assert len(deck.lines) == 6
        assert len(deck.buffs) == 2
        assert len({line.line for line in deck.lines}) == 6
        defenders = [ln for ln in deck.lines if creatures[ln.r1.card].cls == "defenseur"]
        assert len(defenders) <= MAX_DEFENDER_LINES
        for line in deck.lines:
            lines_seen[line.line] += 1
            family = [c for c in creatures.values() if c.line == line.line]
            expected = sorted(c.id for c in family if c.rank <= spec.top_rank)
            held = sorted(c.card for c in (line.r1, *line.r2, *line.r3))
            assert held == expected  # "Rang 1 only": the Rang 1 copy; "up to Rang 2": both paths...
        for raw in [c for line in setup.extra["lines"] for c in line["copies"]] + list(setup.extra["buffs"]):
            assert raw["rarity"] in spec.rarities
            assert spec.stars[0] <= raw["stars"] <= spec.stars[1]
            assert raw["holo"] is False
        assert all(isinstance(cards[b.card], BuffCard) for b in deck.buffs)
    assert len(lines_seen) == 28  # every line shows up over the seeds


def test_the_same_seed_gives_the_same_deck_and_only_random_is_used(catalog: HossCatalog) -> None:
    class OnlyRandom(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:
            raise AssertionError("only Random.random() keeps its sequence across Python versions")

        def choice(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            raise AssertionError("only Random.random()")

    first = opponent_setup(catalog, 5, OnlyRandom(7))
    assert first == opponent_setup(catalog, 5, random.Random(7))
    assert first != opponent_setup(catalog, 5, random.Random(8))


@pytest.mark.parametrize("rank", [1, 5, 9])
def test_battles_between_ranked_decks_run_to_their_end(catalog: HossCatalog, rank: int) -> None:
    ai = strong_policy()
    for seed in range(5):
        mine = opponent_setup(catalog, rank, random.Random(100 + seed), seat=0, player_id=1)
        theirs = opponent_setup(catalog, rank, random.Random(200 + seed))
        result = simulate(mine, theirs, seed, ai, ai, catalog=catalog)
        assert 1 <= result.rounds <= 60


def test_a_win_and_a_loss_pay_the_table() -> None:
    for spec in RANKS:
        won = battle_reward(spec.rank, won=True, rounds=20, deaths=1, wins_before=0)
        assert won == Reward(True, True, spec.win_gold, False, 0, 0)
        assert won.total == spec.win_gold
        lost = battle_reward(spec.rank, won=False, rounds=20, deaths=6, wins_before=0)
        assert lost.total == spec.loss_gold
        assert lost.counted
        assert not lost.won


def test_the_tenth_win_pays_ten_wins() -> None:
    assert battle_reward(1, won=True, rounds=20, deaths=1, wins_before=9).total == 450
    assert battle_reward(4, won=True, rounds=20, deaths=1, wins_before=9).tenth_win
    assert battle_reward(1, won=True, rounds=20, deaths=1, wins_before=10).total == 45  # only the 10th
    assert battle_reward(1, won=True, rounds=20, deaths=1, wins_before=19).total == 45
    assert battle_reward(1, won=False, rounds=20, deaths=1, wins_before=9).total == 5


def test_fast_and_flawless_wins_pay_more_and_the_bonuses_add_up() -> None:
    fast = battle_reward(2, won=True, rounds=10, deaths=2, wins_before=0)
    assert (fast.base, fast.fast_bonus, fast.flawless_bonus, fast.total) == (90, 9, 0, 99)
    assert battle_reward(2, won=True, rounds=11, deaths=2, wins_before=0).total == 90
    flawless = battle_reward(2, won=True, rounds=30, deaths=0, wins_before=0)
    assert flawless.total == 90 + 90 * FLAWLESS_BONUS_PCT // 100 == 108
    both = battle_reward(2, won=True, rounds=8, deaths=0, wins_before=0)
    assert both.total == 90 + 9 + 18  # each bonus on the base: +30 %, not 1.1 x 1.2
    assert battle_reward(1, won=True, rounds=7, deaths=0, wins_before=0).fast_bonus == 5  # 4.5 -> 5
    tenth = battle_reward(1, won=True, rounds=7, deaths=0, wins_before=9)
    assert (tenth.base, tenth.fast_bonus, tenth.flawless_bonus) == (450, 45, 90)
    assert battle_reward(1, won=False, rounds=7, deaths=0, wins_before=0).total == 5  # bonuses: wins only


def test_three_rounds_or_fewer_pay_nothing_and_do_not_count() -> None:
    for won in (True, False):
        for rounds in (0, 1, 3):
            reward = battle_reward(3, won=won, rounds=rounds, deaths=0, wins_before=9)
            assert (reward.counted, reward.total) == (False, 0)
    assert battle_reward(3, won=True, rounds=4, deaths=0, wins_before=0).counted


def test_every_hundredth_win_is_a_milestone_of_that_many_gold() -> None:
    assert [w for w in range(1, 1001) if milestone_gold(w)] == list(range(100, 1001, 100))
    assert milestone_gold(100) == 100
    assert milestone_gold(800) == 800
    assert milestone_gold(0) == milestone_gold(99) == milestone_gold(101) == 0
