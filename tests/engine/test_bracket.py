"""Single elimination (engine/bracket.py) and the seeding draw (engine/seeding.py): the bracket's slots and
byes, the rounds that follow, the third place, the final places, and the commit–reveal seeding."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import fair_draw
from engine.bracket import (
    THIRD_PLACE,
    Table,
    decide,
    following,
    opening,
    placements,
    rounds_for,
    size_for,
    slots,
)
from engine.seeding import coin, random_order, seeding

SEED = "5e" * 32


def test_the_bracket_is_the_smallest_power_of_two_that_holds_everyone() -> None:
    assert [size_for(n) for n in (4, 5, 8, 9, 33, 64)] == [4, 8, 8, 16, 64, 64]
    assert [rounds_for(n) for n in (4, 5, 8, 9, 64)] == [2, 3, 3, 4, 6]


def test_slots_follow_the_standard_seeding_order() -> None:
    assert slots(4) == [1, 4, 2, 3]
    assert slots(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_the_best_seeds_get_the_byes_of_the_first_round() -> None:
    tables = opening([10, 20, 30, 40, 50])
    assert [(t.first, t.second, t.winner) for t in tables] == [
        (10, None, 10),
        (40, 50, None),
        (20, None, 20),
        (30, None, 30),
    ]


def test_the_last_round_plays_the_final_and_the_third_place() -> None:
    semis = [decide(t, t.first) for t in opening([1, 2, 3, 4]) if t.first is not None]
    last = following(4, semis)
    assert [(t.table, t.first, t.second) for t in last] == [(0, 1, 2), (THIRD_PLACE, 4, 3)]
    done = [*semis, decide(last[0], 2), decide(last[1], 3)]
    assert placements([1, 2, 3, 4], done) == [2, 1, 3, 4]


def test_a_round_must_be_decided_before_the_next_one() -> None:
    with pytest.raises(ValueError, match="not decided"):
        following(4, opening([1, 2, 3, 4]))


def test_a_winner_must_play_at_the_table() -> None:
    with pytest.raises(ValueError, match="does not play"):
        decide(Table(1, 0, 1, 2), 3)


def _pick(table: Table, rng: random.Random) -> int:
    return rng.choice([p for p in (table.first, table.second) if p is not None])


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=4, max_value=64), st.integers(min_value=0, max_value=2**32))
def test_any_field_plays_down_to_one_champion_and_places_everyone(count: int, seed: int) -> None:
    rng = random.Random(seed)
    seeded = list(range(1, count + 1))
    tables = opening(seeded)
    everything = [*tables]
    for _ in range(rounds_for(count) - 1):
        decided = [t if t.decided else decide(t, _pick(t, rng)) for t in tables]
        everything = [t for t in everything if t.round != decided[0].round] + decided
        tables = following(count, decided)
        everything += tables
        assert all(t.first is not None and t.second is not None for t in tables)  # byes: first round only
    final = [decide(t, _pick(t, rng)) for t in tables]
    everything = [t for t in everything if t.round != final[0].round] + final
    places = placements(seeded, everything)
    assert sorted(places) == seeded
    assert len(tables) == 2  # the final and the third place


def test_seeds_one_and_two_meet_only_in_the_final() -> None:
    seeded = list(range(1, 17))
    tables = opening(seeded)
    while True:
        decided = [decide(t, min(p for p in (t.first, t.second) if p is not None)) for t in tables]
        if decided[0].round == rounds_for(16):
            break
        assert all({t.first, t.second} != {1, 2} for t in decided)
        tables = following(16, decided)
    assert (tables[0].first, tables[0].second) == (1, 2)


def test_random_seeding_is_the_published_draw_and_anyone_recomputes_it() -> None:
    entrants = [305, 101, 207, 400]
    order = random_order(SEED, entrants)
    positions = fair_draw.draw(SEED, [str(p) for p in entrants], 4)
    assert order == [entrants[p] for p in positions]
    assert sorted(order) == sorted(entrants)
    assert random_order("ab" * 32, entrants) != order or random_order("cd" * 32, entrants) != order


def test_seeding_by_rating_puts_the_best_first_and_the_draw_breaks_ties() -> None:
    entrants = [1, 2, 3, 4]
    drawn = random_order(SEED, entrants)
    order = seeding(SEED, entrants, {1: 1200, 2: 1000, 3: 1000, 4: 1500})
    assert order[:2] == [4, 1]
    assert order[2:] == [p for p in drawn if p in (2, 3)]


def test_a_coin_flip_is_a_seat_from_the_seed() -> None:
    flips = [coin(SEED, 1, table) for table in range(200)]
    assert set(flips) == {0, 1}
    assert 60 < sum(flips) < 140
    assert flips == [coin(SEED, 1, table) for table in range(200)]
    assert coin(SEED, 2, 0) == fair_draw.uniform(SEED, "coin:2:0", 2)
