"""The lab's statistics (services/community/lab/stats.py): Wilson's interval, its coverage, the card
correlation, and how a batch is shared between its opponents."""

from __future__ import annotations

import random

import pytest

from services.community.lab.service import split
from services.community.lab.stats import Outcome, card_effects, extremes, summarize, wilson


def test_wilson_matches_the_published_values() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775 (z = 1.96)
    interval = wilson(81, 263)
    assert interval.low == pytest.approx(0.2553, abs=5e-5)
    assert interval.high == pytest.approx(0.3662, abs=5e-5)
    none = wilson(0, 10)
    assert none.low == 0.0
    assert none.high == pytest.approx(0.2775, abs=5e-5)
    assert wilson(10, 10).high == 1.0
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)


def test_wilson_refuses_more_wins_than_battles() -> None:
    with pytest.raises(ValueError, match=r"wins must be within 0\.\.3"):
        wilson(4, 3)


@pytest.mark.parametrize("p", [0.05, 0.5, 0.9])
def test_the_interval_covers_the_true_rate_about_95_percent_of_the_time(p: float) -> None:
    """2,000 seeded batches of 111 battles (a rank's share of a 1,000-battle lab): the true rate falls in
    the interval in 95 % of them, within 2 points (the binomial's discreteness moves it a little)."""
    rnd = random.Random(f"coverage:{p}")
    trials, n = 2000, 111
    covered = 0
    for _ in range(trials):
        wins = sum(1 for _ in range(n) if rnd.random() < p)
        interval = wilson(wins, n)
        covered += interval.low <= p <= interval.high
    assert 0.93 <= covered / trials <= 0.975


def outcome(won: bool, *cards: str, lost: bool | None = None, length: int = 5) -> Outcome:
    return Outcome(won, (not won) if lost is None else lost, length, cards)


def test_a_summary_counts_wins_losses_draws_and_the_mean_length() -> None:
    summary = summarize(
        [outcome(True, length=4), outcome(False, length=6), outcome(False, lost=False, length=8)]
    )
    assert (summary.battles, summary.wins, summary.losses, summary.draws) == (3, 1, 1, 1)
    assert summary.mean_length == 6
    assert summary.win_rate == pytest.approx(1 / 3)
    assert summary.interval == wilson(1, 3)


def test_a_card_effect_is_its_win_rate_present_minus_absent_with_both_counts() -> None:
    battles = [
        outcome(True, "a", "b"),
        outcome(True, "a"),
        outcome(False, "a", "b"),
        outcome(False, "b"),
        outcome(False, "c"),
    ]
    effects = {e.card: e for e in card_effects(battles)}
    a = effects["a"]
    assert (a.with_, a.wins_with, a.without, a.wins_without) == (3, 2, 2, 0)
    assert a.difference == pytest.approx(2 / 3)
    assert effects["b"].difference == pytest.approx(1 / 3 - 1 / 2)
    assert effects["c"].difference == pytest.approx(0 - 2 / 4)
    assert [e.card for e in card_effects(battles)] == ["a", "b", "c"]


def test_a_card_present_in_every_battle_or_almost_none_is_left_out() -> None:
    battles = [outcome(i % 2 == 0, "always", *(["rare"] if i == 0 else [])) for i in range(40)]
    assert card_effects(battles) == []  # "always" has no battle without it, "rare" is in 1 of 40 (< 5 %)


def test_the_best_and_the_worst_never_share_a_card() -> None:
    battles = [outcome(i % 3 == 0, f"c{i % 4}", f"d{i % 5}") for i in range(60)]
    effects = card_effects(battles)
    best, worst = extremes(effects, 3)
    assert not {e.card for e in best} & {e.card for e in worst}
    assert best == effects[:3]
    assert worst[0] == effects[-1]
    few_best, few_worst = extremes(effects[:4], 3)
    assert len(few_best) == 3
    assert len(few_worst) == 1


def test_a_batch_is_shared_evenly_between_its_opponents() -> None:
    assert split(1000, 9) == [112] + [111] * 8
    assert sum(split(1000, 9)) == 1000
