"""« L'Arène »: the points table with its 0 floor, matchmaking's window, the ranking, the weekly payout."""

from __future__ import annotations

import pytest

from engine.hoss.arena import (
    PARTICIPATION_GOLD,
    TOP_PRIZES,
    ArenaResult,
    Standing,
    incomplete_lines,
    opponents,
    rank,
    season_payouts,
    settle,
    shared_copies,
)


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (ArenaResult.WIN, (12, 9, 50, 1)),  # attacker +2 / 50 gold, defender −1 / 1 gold
        (ArenaResult.LOSS, (9, 11, 5, 10)),  # attacker −1 / 5 gold, defender +1 / 10 gold
        (ArenaResult.TIE, (10, 10, 5, 1)),  # « Une égalité ne change pas les points »
    ],
)
def test_the_points_table(result: ArenaResult, expected: tuple[int, int, int, int]) -> None:
    s = settle(10, 10, result)
    assert (s.attacker_points, s.defender_points, s.attacker_gold, s.defender_gold) == expected


def test_nobody_goes_below_zero() -> None:
    assert settle(0, 5, ArenaResult.LOSS).attacker_points == 0
    assert settle(5, 0, ArenaResult.WIN).defender_points == 0
    assert settle(0, 0, ArenaResult.WIN).attacker_points == 2


def test_the_window_is_thirty_above_and_thirty_below_less_the_last_hours_opponents() -> None:
    ranking = list(range(100))
    window = opponents(ranking, 50, recent=())
    assert window == [*range(20, 50), *range(51, 81)]
    assert opponents(ranking, 50, recent={20, 80, 51}) == [*range(21, 50), *range(52, 80)]


def test_the_window_is_cut_at_the_ends_of_the_ranking() -> None:
    ranking = list(range(100))
    assert opponents(ranking, 0, recent=()) == list(range(1, 31))
    assert opponents(ranking, 99, recent=()) == list(range(69, 99))
    assert opponents([7, 8], 8, recent=()) == [7]
    assert opponents([7, 8], 8, recent={7}) == []


def test_an_unranked_attacker_is_refused() -> None:
    with pytest.raises(ValueError, match="not in the ranking"):
        opponents([1, 2, 3], 4, recent=())


def test_ranking_ties_fall_to_attack_wins_then_who_got_there_first_then_the_id() -> None:
    standings = [
        Standing(player_id=1, points=10, attack_wins=3, reached_at=50),
        Standing(player_id=2, points=12, attack_wins=0, reached_at=90),
        Standing(player_id=3, points=10, attack_wins=5, reached_at=70),
        Standing(player_id=4, points=10, attack_wins=3, reached_at=40),
        Standing(player_id=6, points=0, attack_wins=0, reached_at=10),
        Standing(player_id=5, points=0, attack_wins=0, reached_at=10),
    ]
    assert [s.player_id for s in rank(standings)] == [2, 3, 4, 1, 5, 6]


def test_the_weekly_payout_table() -> None:
    assert TOP_PRIZES == (3_000, 2_000, 1_500, 1_000, 1_000, 600, 600, 600, 600, 600)
    paid = season_payouts(list(range(100, 115)))
    assert [gold for _, gold in paid] == [3_000, 2_000, 1_500, 1_000, 1_000, *[600] * 5, *[150] * 5]
    assert [player for player, _ in paid] == list(range(100, 115))
    assert season_payouts([7, 8]) == [(7, 3_000), (8, 2_000)]
    assert season_payouts([]) == []
    assert sum(g for _, g in season_payouts(list(range(10_000)))) == 11_500 + 9_990 * PARTICIPATION_GOLD


def test_two_decks_may_not_share_a_copy_and_lines_must_be_complete() -> None:
    assert shared_copies({1, 2, 3}, {4, 5}) == set()
    assert shared_copies({1, 2, 3}, {3, 5}) == {3}
    assert incomplete_lines([[1, 2, 3], [1, 2], [1, 2, 3, 3], [2, 3]]) == [1, 3]
