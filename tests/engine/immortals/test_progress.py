"""What a duel is worth (card XP, player XP, combat points, gains, anti-farm), deck rules, sign-up draw."""

from __future__ import annotations

import random

import pytest

from engine.immortals.progress import (
    FULL_LIFE_BONUS,
    KILL_BONUS,
    SWEEP_BONUS,
    combat_points,
    consecutive_duels,
    deck_problems,
    duel_result,
    halve,
    halve_card_xp,
    player_xp,
    starter_deck,
    starter_spells,
)
from engine.immortals.state import START_VITALITY, FightRecord, ImmortalsState
from tests.engine.immortals.helpers import catalog, record_side, state, unit


def finished(
    fights: list[int | None],
    winner: int | None,
    vitality: tuple[int, int] = (20, 20),
    levels: tuple[tuple[int, ...], tuple[int, ...]] = ((1, 1, 1, 1), (1, 1, 1, 1)),
    reason: str = "vitality",
) -> ImmortalsState:
    """A finished duel whose fight i was won by `fights[i]` (None: drawn), units u<seat>-i fighting."""
    units = tuple(
        tuple(
            unit(f"u{seat}-{i}", level=levels[seat][i], card_id=f"c{seat}{i}", deck_index=i) for i in range(4)
        )
        for seat in (0, 1)
    )
    history = tuple(
        FightRecord(
            round=i + 1,
            fighters=(
                record_side(f"u0-{i}"),
                record_side(f"u1-{i}"),
            ),
            initiative=0,
            trace=((20, 20),),
            winner=w,
            damage=0,
            vitality=vitality,
        )
        for i, w in enumerate(fights)
    )
    return state(units[0], units[1]).model_copy(
        update={
            "history": history,
            "finished": True,
            "winner": winner,
            "reason": reason,
            "vitality": vitality,
        }
    )


@pytest.mark.parametrize(
    ("duel", "fight", "xp"),
    [
        ("win", "win", 9),
        ("win", "draw", 6),
        ("win", "loss", 3),
        ("draw", "win", 8),
        ("draw", "draw", 5),
        ("draw", "loss", 2),
        ("loss", "win", 7),
        ("loss", "draw", 4),
        ("loss", "loss", 1),
    ],
)
def test_card_experience_by_the_duel_and_the_fight(duel: str, fight: str, xp: int) -> None:
    """Seat 0's first unit fought with the result `fight` in a duel seat 0 ended with `duel`."""
    fight_winner = {"win": 0, "draw": None, "loss": 1}[fight]
    duel_winner = {"win": 0, "draw": None, "loss": 1}[duel]
    s = finished([fight_winner, None, None, None], duel_winner)
    result = duel_result(s, 0)
    assert result.result == duel
    assert result.cards[0].xp == xp
    assert (result.cards[0].uid, result.cards[0].deck_index) == ("u0-0", 0)


def test_only_the_units_that_fought_gain_experience() -> None:
    s = finished([0, 0], 0, vitality=(30, 0), reason="ko")
    assert [c.uid for c in duel_result(s, 0).cards] == ["u0-0", "u0-1"]


def test_player_experience_adds_the_cards_xp_and_the_level_difference() -> None:
    """Seat 0 wins 3 fights and loses one (9+9+9+3 = 30 card XP); its units are levels 1, 1, 2, 2 (6),
    the opponent's 3, 3, 4, 5 (15): 30 + 15 - 6 = 39. Seat 1: 7+1+1+1 = 10 + 6 - 15 = 1."""
    s = finished([0, 0, 0, 1], 0, levels=((1, 1, 2, 2), (3, 3, 4, 5)))
    assert duel_result(s, 0).player_xp == 39
    assert duel_result(s, 1).player_xp == 1
    assert player_xp(30, 6, 15) == 39


def test_player_experience_counts_maxed_cards_and_never_goes_below_zero() -> None:
    """Seat 0's units are all level 5 (maxed), the opponent's level 1. Winning every fight: its cards'
    36 XP count though they cannot level up, 36 + 4 - 20 = 20. Losing every fight: 4 + 4 - 20 < 0 -> 0."""
    levels = ((5, 5, 5, 5), (1, 1, 1, 1))
    assert duel_result(finished([0, 0, 0, 0], 0, levels=levels), 0).player_xp == 20
    assert duel_result(finished([1, 1, 1, 1], 1, levels=levels), 0).player_xp == 0
    assert player_xp(4, 20, 4) == 0


def test_combat_points_are_the_xp_gained_plus_each_bonus() -> None:
    assert combat_points(10, 3, 25, False) == 10
    assert combat_points(10, 4, 25, False) == 10 + SWEEP_BONUS == 15
    assert combat_points(10, 3, START_VITALITY, False) == 10 + FULL_LIFE_BONUS == 15
    assert combat_points(10, 3, 25, True) == 10 + KILL_BONUS == 30
    assert combat_points(10, 4, START_VITALITY, True) == 40


def test_combat_points_of_a_finished_duel() -> None:
    """A sweep at full vitality that kills: 36 card XP (levels equal) + 5 + 5 + 20."""
    s = finished([0, 0, 0, 0], 0, vitality=(START_VITALITY, 0), reason="ko")
    result = duel_result(s, 0)
    assert (result.player_xp, result.combat_points, result.rounds_won) == (36, 66, 4)


def test_gains_grow_with_the_result() -> None:
    win = duel_result(finished([0, 0, 1, None], 0), 0)
    loss = duel_result(finished([0, 0, 1, None], 0), 1)
    assert (win.gold, win.fragments) == (40, 2)
    assert (loss.gold, loss.fragments) == (10, 0)
    kill = duel_result(finished([0, 0], 0, vitality=(30, 0), reason="ko"), 0)
    assert (kill.gold, kill.fragments) == (40, 5)


def test_consecutive_duels_count_only_the_unbroken_run_against_the_same_opponent() -> None:
    assert consecutive_duels(20, []) == 0
    assert consecutive_duels(20, [20]) == 1
    assert consecutive_duels(20, [20, 20, 20]) == 3
    assert consecutive_duels(20, [20, 20, 30]) == 0  # the last duel was against someone else
    assert consecutive_duels(20, [20, 30, 20, 20]) == 2


def test_anti_farm_halves_every_gain_of_a_consecutive_duel_once_however_long_the_run() -> None:
    """« Tout combat consécutif avec le même adversaire se vera infligé un malus de 50% à tous les gains. »:
    the second, third and tenth duel in a row against the same opponent each pay half, not a quarter or
    less; a duel against someone else in between resets the run."""
    s = finished([0, 0, 0, 1], 0)  # seat 1 is player 20
    fresh = duel_result(s, 0, previous_opponents=[20, 30])
    assert (fresh.halvings, fresh.consecutive) == (0, 0)
    for run in (1, 2, 9):
        again = duel_result(s, 0, previous_opponents=[30, *[20] * run])
        assert (again.halvings, again.consecutive) == (1, run)
        for field in ("player_xp", "combat_points", "gold", "fragments"):
            assert getattr(again, field) == getattr(fresh, field) // 2, (run, field)
        assert [c.xp for c in again.cards] == [(c.xp + 1) // 2 for c in fresh.cards]
    assert halve(9, True) == 4
    assert halve(9, False) == 9
    assert halve(0, True) == 0


def test_every_unit_that_fought_gains_experience_even_halved() -> None:
    """« Chaque combat, gagné ou perdu, fera gagner de l'expérience à vos unités. »: a lost duel's lost
    fight gives 1 XP, and the anti-farm half of it is still 1, not 0; every halved card XP rounds up."""
    s = finished([1, 1, 1, None], 1)  # seat 0 loses the duel: 1 XP per lost fight, 4 for the drawn one
    full = duel_result(s, 0, previous_opponents=[])
    halved = duel_result(s, 0, previous_opponents=[20])
    assert [c.xp for c in full.cards] == [1, 1, 1, 4]
    assert [c.xp for c in halved.cards] == [1, 1, 1, 2]
    assert all(c.xp >= 1 for c in halved.cards)
    assert [halve_card_xp(xp, True) for xp in (1, 2, 3, 9)] == [1, 1, 2, 5]
    assert halve_card_xp(3, False) == 3


def test_a_duel_not_over_has_no_result() -> None:
    with pytest.raises(ValueError, match="not over"):
        duel_result(state(), 0)


@pytest.mark.parametrize(
    ("levels", "valid"),
    [
        ((1, 1, 1), True),
        ((3, 3, 3), True),
        ((1, 2, 3, 1), False),  # never 4 identical units
        ((4, 1, 1), False),
        ((4, 1), True),
        ((4, 4), True),
        ((5, 1), False),
        ((5,), True),
        ((3, 3, 2), True),
    ],
)
def test_identical_cards_are_limited_by_their_highest_level(levels: tuple[int, ...], valid: bool) -> None:
    deck = [("imp", level) for level in levels] + [("goblin", 1), ("whelp", 1), ("boar", 1)]
    problems = deck_problems(deck, catalog())
    assert (problems == []) == valid, problems
    if not valid:
        assert problems == ["copies:imp"]


def test_a_deck_has_four_to_thirty_known_units_of_levels_one_to_five() -> None:
    cat = catalog()
    assert deck_problems([("imp", 1)] * 3, cat) == ["size"]
    assert deck_problems([("nope", 1), ("imp", 6), ("goblin", 1), ("whelp", 1)], cat) == [
        "unknown:nope",
        "level:imp",
    ]
    assert deck_problems([(c.id, 1) for c in cat.cards[:31]], cat) == ["size"]
    assert deck_problems([(c.id, 1) for c in cat.cards[:30]], cat) == []


def test_the_starter_deck_is_eight_units_of_eight_families_from_a_seed() -> None:
    cat = catalog()
    seen: set[str] = set()
    for seed in range(200):
        deck = starter_deck(cat, random.Random(seed))
        cards = [cat.card(card_id) for card_id in deck]
        assert len(deck) == 8
        assert len({c.family for c in cards if c is not None}) == 8
        assert all(c is not None and c.tier == 1 for c in cards)
        assert deck == starter_deck(cat, random.Random(seed))
        assert deck_problems([(card_id, 1) for card_id in deck], cat) == []
        seen.update(deck)
    assert seen == {c.id for c in cat.cards if c.tier == 1}  # every tier-1 unit can be dealt


def test_starter_spells_are_at_least_eight_so_a_new_player_draws_eight() -> None:
    spells = starter_spells(catalog())
    assert len(spells) >= 8
    assert len(set(spells)) == len(spells)
