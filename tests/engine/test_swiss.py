"""The Swiss format (engine/swiss.py): the standings and their tie-break, and the Monrad pairing with
rematch avoidance, checked against a brute-force oracle on small fields (docs/tournaments.md, "Swiss")."""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.swiss import DRAW, LOSS, WIN, Played, default_rounds, met_pairs, pair_round, standings


def test_rounds_default_to_log2_of_the_field_rounded_up() -> None:
    assert [default_rounds(n) for n in (4, 5, 8, 9, 16, 17, 33, 64)] == [2, 3, 3, 4, 4, 5, 6, 6]


def test_a_win_and_a_bye_count_two_half_points_a_draw_one() -> None:
    rows = standings(
        [1, 2, 3, 4, 5], [Played(1, 2, (WIN, LOSS)), Played(3, 4, (DRAW, DRAW)), Played(5, None, (WIN, 0))]
    )
    points = {row.player: row.points for row in rows}
    assert points == {1: 2, 2: 0, 3: 1, 4: 1, 5: 2}


def test_buchholz_adds_the_opponents_points_and_a_bye_adds_nothing() -> None:
    played = [
        Played(1, 2, (WIN, LOSS)),
        Played(3, 4, (WIN, LOSS)),
        Played(5, None, (WIN, 0)),
        Played(1, 3, (WIN, LOSS)),
        Played(5, 2, (WIN, LOSS)),
        Played(4, None, (WIN, 0)),
    ]
    rows = {row.player: row for row in standings([1, 2, 3, 4, 5], played)}
    assert rows[1].buchholz == rows[2].points + rows[3].points == 0 + 2
    assert rows[5].buchholz == rows[2].points == 0  # its bye adds nothing
    assert rows[4].buchholz == rows[3].points == 2


def test_standings_rank_by_points_then_buchholz_then_seed() -> None:
    played = [
        Played(1, 2, (WIN, LOSS)),
        Played(3, 4, (WIN, LOSS)),
        Played(1, 3, (WIN, LOSS)),
        Played(4, 2, (WIN, LOSS)),
    ]
    ranked = [row.player for row in standings([1, 2, 3, 4], played)]
    # 3 and 4 both have one win; 3 met 1 (4 points) and 4, 4 met 3 and 2: 3 has the better Buchholz
    assert ranked == [1, 3, 4, 2]
    assert [row.player for row in standings([2, 1], [])] == [2, 1]  # nothing played: the seeding


def test_round_one_pairs_adjacent_seeds_and_round_two_pairs_the_winners_together() -> None:
    first = pair_round([1, 2, 3, 4, 5, 6, 7, 8], set(), set())
    assert first.pairs == ((1, 2), (3, 4), (5, 6), (7, 8))
    played = [Played(a, b, (WIN, LOSS)) for a, b in first.pairs]
    ranked = [row.player for row in standings([1, 2, 3, 4, 5, 6, 7, 8], played)]
    second = pair_round(ranked, met_pairs(played), set())
    winners = {1, 3, 5, 7}
    assert all((a in winners) == (b in winners) for a, b in second.pairs)
    assert second.rematches == 0


def test_a_rematch_is_avoided_by_going_back_one_choice() -> None:
    # 1 met 2 and 3; the closest opponent left for 1 is 4, then 2 meets 3
    result = pair_round([1, 2, 3, 4], {frozenset((1, 2)), frozenset((1, 3))}, set())
    assert result.pairs == ((1, 4), (2, 3))


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    assert pair_round([1, 2, 3, 4, 5], set(), set()).bye == 5
    assert pair_round([1, 2, 3, 4, 5], set(), {5}).bye == 4


def test_with_no_rematch_free_pairing_the_ranking_order_pairs_them() -> None:
    everyone = {frozenset(p) for p in itertools.combinations([1, 2, 3, 4], 2)}
    result = pair_round([1, 2, 3, 4], everyone, set())
    assert result.pairs == ((1, 2), (3, 4))
    assert result.rematches == 2


# --- properties against a brute-force oracle --------------------------------------------------------------


def _perfect(players: list[int], met: Collection[frozenset[int]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in met and _perfect(rest[:i] + rest[i + 1 :], met)
        for i, other in enumerate(rest)
    )


def _byes_possible(ranked: list[int], met: Collection[frozenset[int]], had_bye: Collection[int]) -> list[int]:
    """The players who may take the bye with the others paired without a rematch, lowest-ranked first."""
    eligible = [p for p in reversed(ranked) if p not in had_bye] or list(reversed(ranked))
    return [p for p in eligible if _perfect([q for q in ranked if q != p], met)]


@st.composite
def situations(draw: st.DrawFn) -> tuple[list[int], set[frozenset[int]], set[int]]:
    count = draw(st.integers(min_value=2, max_value=9))
    ranked = draw(st.permutations(list(range(1, count + 1))))
    pairs = list(itertools.combinations(range(1, count + 1), 2))
    met = {frozenset(p) for p in draw(st.lists(st.sampled_from(pairs), max_size=len(pairs)))}
    had_bye = set(draw(st.lists(st.sampled_from(ranked), max_size=count)))
    return list(ranked), met, had_bye


@settings(max_examples=300, deadline=None)
@given(situations())
def test_every_player_is_paired_once_and_rematches_only_when_unavoidable(
    situation: tuple[list[int], set[frozenset[int]], set[int]],
) -> None:
    ranked, met, had_bye = situation
    result = pair_round(ranked, met, had_bye)
    seated = [p for pair in result.pairs for p in pair] + ([result.bye] if result.bye is not None else [])
    assert sorted(seated) == sorted(ranked)
    assert (result.bye is None) == (len(ranked) % 2 == 0)
    avoidable = _perfect(ranked, met) if len(ranked) % 2 == 0 else bool(_byes_possible(ranked, met, had_bye))
    if avoidable:
        assert result.rematches == 0
        assert all(frozenset(pair) not in met for pair in result.pairs)
    assert result.rematches == sum(frozenset(pair) in met for pair in result.pairs)


@settings(max_examples=300, deadline=None)
@given(situations())
def test_the_bye_goes_to_the_lowest_ranked_player_it_can_and_never_twice(
    situation: tuple[list[int], set[frozenset[int]], set[int]],
) -> None:
    ranked, met, had_bye = situation
    if len(ranked) % 2 == 0:
        ranked = ranked[:-1]
    result = pair_round(ranked, met, had_bye)
    if any(p not in had_bye for p in ranked):
        assert result.bye not in had_bye
    possible = _byes_possible(ranked, met, had_bye)
    if possible:
        assert result.bye == possible[0]  # the lowest-ranked one that leaves a rematch-free pairing


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=4, max_value=24), st.integers(min_value=0, max_value=2**32))
def test_whole_tournaments_give_each_player_one_bye_at_most_and_avoid_rematches(
    count: int, seed: int
) -> None:
    rng = random.Random(seed)
    seeded = list(range(100, 100 + count))
    played: list[Played] = []
    byes: list[int] = []
    for _ in range(default_rounds(count)):
        ranked = [row.player for row in standings(seeded, played)]
        met = met_pairs(played)
        result = pair_round(ranked, met, set(byes))
        if len(ranked) % 2 == 0 and _perfect(ranked, met):
            assert result.rematches == 0
        if result.bye is not None:
            byes.append(result.bye)
            played.append(Played(result.bye, None, (WIN, 0)))
        for a, b in result.pairs:
            points = rng.choice([(WIN, LOSS), (LOSS, WIN), (DRAW, DRAW), (LOSS, LOSS)])
            played.append(Played(a, b, points))
    assert len(byes) == len(set(byes))
    if count >= 8:  # ⌈log2 n⌉ rounds among 8 or more players never force a rematch
        assert len(met_pairs(played)) == sum(1 for t in played if t.second is not None)


def test_pairing_sixty_four_players_is_deterministic() -> None:
    ranked = list(range(1, 65))
    rng = random.Random(7)
    met = {frozenset(rng.sample(ranked, 2)) for _ in range(150)}
    assert pair_round(ranked, met, {64}) == pair_round(ranked, met, {64})
