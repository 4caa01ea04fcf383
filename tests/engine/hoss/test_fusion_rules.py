"""Fusion rules (engine/hoss/fusion.py): the chance table, who is sacrificed, chain pairing, and the odds
measured over many seeded rolls. Decisions are in docs/hoss/collection.md."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hoss.catalog import RARITIES, Rarity
from engine.hoss.fusion import (
    MAX_FUSION_COPIES,
    SELECTION_LEVELS,
    FusionCopy,
    FusionError,
    empty_selection_reason,
    fusable,
    fusion_chance_pct,
    fusion_selection,
    plan_fusion,
    roll,
)


def copy(
    id: int,
    rarity: Rarity = "basique",
    stars: int = 0,
    *,
    card: str = "c",
    holo: bool = False,
    locked: bool = False,
) -> FusionCopy:
    return FusionCopy(id=id, card=card, rarity=rarity, stars=stars, holo=holo, locked=locked)


def refused(*copies: FusionCopy) -> str:
    with pytest.raises(FusionError) as caught:
        plan_fusion(copies)
    return caught.value.key


# --- chances ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("target", "base"), [(1, 80), (2, 65), (3, 45), (4, 25), (5, 12)])
def test_base_chance_per_star_reached(target: int, base: int) -> None:
    assert fusion_chance_pct(target, "basique") == base  # Basique is rarity rank 0: +0 %


@pytest.mark.parametrize(("rarity", "bonus"), list(zip(RARITIES, [0, 2, 4, 6, 8, 10], strict=True)))
def test_two_percent_per_rarity_rank_of_the_sacrificed_copy(rarity: Rarity, bonus: int) -> None:
    for target, base in {1: 80, 2: 65, 3: 45, 4: 25, 5: 12}.items():
        assert fusion_chance_pct(target, rarity) == base + bonus


@pytest.mark.parametrize("target", [0, 6])
def test_no_fusion_reaches_zero_or_six_stars(target: int) -> None:
    with pytest.raises(ValueError, match="no fusion reaches"):
        fusion_chance_pct(target, "or")


def test_roll_is_a_pure_function_of_the_generator() -> None:
    a, b = random.Random(7), random.Random(7)
    assert [roll(a, 45) for _ in range(200)] == [roll(b, 45) for _ in range(200)]
    assert not any(roll(random.Random(i), 0) for i in range(100))
    assert all(roll(random.Random(i), 100) for i in range(100))


TRIALS = 20_000


@pytest.mark.parametrize("target", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("rarity", RARITIES)
def test_measured_success_rate_matches_the_chance(target: int, rarity: Rarity) -> None:
    """20,000 seeded rolls per (star, rarity); tolerance ±4.5 binomial standard deviations (≤ 1.6 points)."""
    chance = fusion_chance_pct(target, rarity)
    rng = random.Random(f"fusion-{target}-{rarity}")
    successes = sum(roll(rng, chance) for _ in range(TRIALS))
    p = chance / 100
    sigma = math.sqrt(TRIALS * p * (1 - p))
    assert abs(successes - TRIALS * p) <= 4.5 * sigma, (successes / TRIALS, p)


# --- who is sacrificed -----------------------------------------------------------------------------------


def test_the_less_rare_copy_is_sacrificed_and_sets_the_chance() -> None:
    (pair,) = plan_fusion([copy(1, "basique", 2), copy(2, "or", 2)]).pairs
    assert (pair.survivor.id, pair.sacrificed.id, pair.target_stars, pair.chance_pct) == (2, 1, 3, 45)
    (pair,) = plan_fusion([copy(1, "diamant", 2), copy(2, "or", 2)]).pairs
    assert (pair.survivor.id, pair.sacrificed.id, pair.chance_pct) == (1, 2, 49)


def test_equal_rarity_keeps_the_older_copy() -> None:
    (pair,) = plan_fusion([copy(9, "argent", 1), copy(4, "argent", 1)]).pairs
    assert (pair.survivor.id, pair.sacrificed.id) == (4, 9)


def test_equal_rarity_keeps_the_locked_copy() -> None:
    (pair,) = plan_fusion([copy(4, "argent", 1), copy(9, "argent", 1, locked=True)]).pairs
    assert (pair.survivor.id, pair.sacrificed.id) == (9, 4)


def test_a_locked_copy_is_never_sacrificed_but_may_survive() -> None:
    assert refused(copy(1, "basique", locked=True), copy(2, "or")) == "hoss.error.fusion.locked"
    (pair,) = plan_fusion([copy(1, "basique"), copy(2, "or", locked=True)]).pairs
    assert pair.survivor.id == 2


def test_a_holo_is_never_sacrificed() -> None:
    (pair,) = plan_fusion([copy(1, "argent", holo=True), copy(2, "argent")]).pairs
    assert (pair.survivor.id, pair.rarer_sacrificed) == (1, False)
    assert plan_fusion([copy(1, "argent", holo=True), copy(2, "argent")]).confirmations == []


def test_a_holo_less_rare_than_its_partner_survives_but_asks_for_confirmation() -> None:
    plan = plan_fusion([copy(1, "basique", 3, holo=True), copy(2, "or", 3)])
    (pair,) = plan.pairs
    assert (pair.survivor.id, pair.sacrificed.id, pair.rarer_sacrificed) == (1, 2, True)
    assert pair.chance_pct == 25 + 4  # the sacrificed copy's rank counts
    assert plan.confirmations == [("hoss.error.fusion.confirm_rarer_sacrificed", {"copy": 2})]


def test_two_holos_cannot_fuse() -> None:
    assert refused(copy(1, "or", holo=True), copy(2, "divin", holo=True)) == "hoss.error.fusion.holo"


# --- 5★ as 4★ ---------------------------------------------------------------------------------------------


def test_a_five_star_may_stand_in_for_a_four_star_of_a_rarer_copy() -> None:
    plan = plan_fusion([copy(1, "argent", 5), copy(2, "or", 4)])
    (pair,) = plan.pairs
    assert (pair.survivor.id, pair.sacrificed.id, pair.target_stars) == (2, 1, 5)
    assert (pair.five_as_four, pair.chance_pct) == (True, 12 + 2)
    assert plan.confirmations == [("hoss.error.fusion.confirm_five_as_four", {"copy": 1, "chance": 14})]


@pytest.mark.parametrize("five_rarity", ["or", "platine"])
def test_the_four_star_must_be_rarer(five_rarity: Rarity) -> None:
    assert refused(copy(1, five_rarity, 5), copy(2, "or", 4)) == "hoss.error.fusion.five_not_less_rare"


def test_the_stand_in_follows_the_holo_and_lock_rules() -> None:
    assert refused(copy(1, "argent", 5, holo=True), copy(2, "or", 4)) == "hoss.error.fusion.holo"
    assert refused(copy(1, "argent", 5, locked=True), copy(2, "or", 4)) == "hoss.error.fusion.locked"


def test_five_stars_is_the_maximum() -> None:
    assert refused(copy(1, "or", 5), copy(2, "or", 5)) == "hoss.error.fusion.max_stars"
    assert refused(copy(1, "argent", 5), copy(2, "or", 4), copy(3, "or", 4), copy(4, "or", 5)) == (
        "hoss.error.fusion.max_stars"  # in a chain a 5★ cannot stand in: only in a fusion of two
    )


# --- selections the rules refuse -------------------------------------------------------------------------


def test_selection_errors() -> None:
    assert refused(copy(1)) == "hoss.error.fusion.too_few"
    assert refused(copy(1), copy(1)) == "hoss.error.fusion.duplicate"
    assert refused(copy(1, card="a"), copy(2, card="b")) == "hoss.error.fusion.not_same_card"
    assert refused(copy(1, stars=1), copy(2, stars=2)) == "hoss.error.fusion.not_same_stars"
    assert refused(copy(1), copy(2), copy(3)) == "hoss.error.fusion.odd_count"
    many = [copy(i) for i in range(MAX_FUSION_COPIES + 2)]
    assert refused(*many) == "hoss.error.fusion.too_many"


def test_odd_count_names_the_level() -> None:
    with pytest.raises(FusionError) as caught:
        plan_fusion([copy(1, stars=1), copy(2, stars=1), copy(3, stars=2), copy(4, stars=1)])
    assert caught.value.params == {"card": "c", "stars": 1, "count": 3}


# --- chains -----------------------------------------------------------------------------------------------


def test_chain_keeps_the_rarest_half_and_pairs_by_rarity() -> None:
    group = [
        copy(1, "basique", 1),
        copy(2, "or", 1),
        copy(3, "argent", 1),
        copy(4, "divin", 1),
        copy(5, "basique", 1),
        copy(6, "argent", 1),
    ]
    plan = plan_fusion(group)
    pairs = [(p.survivor.id, p.sacrificed.id, p.chance_pct) for p in plan.pairs]
    # survivors: Divin, Or, the older Argent; sacrificed: the newer Argent, then the Basiques
    assert pairs == [(4, 6, 65 + 2), (2, 1, 65), (3, 5, 65)]


def test_chain_pairs_a_holo_with_a_copy_it_outranks_when_it_can() -> None:
    plan = plan_fusion([copy(1, "basique", holo=True), copy(2, "or"), copy(3, "or"), copy(4, "basique")])
    assert [(p.survivor.id, p.sacrificed.id) for p in plan.pairs] == [(2, 3), (1, 4)]
    assert plan.confirmations == []


def test_chain_runs_every_level_and_card_at_once_without_cascading() -> None:
    plan = plan_fusion(
        [
            copy(1, stars=0),
            copy(2, stars=0),
            copy(3, stars=1),
            copy(4, stars=1),
            copy(5, stars=0, card="d"),
            copy(6, stars=0, card="d"),
        ]
    )
    assert [(p.survivor.card, p.survivor.id, p.target_stars) for p in plan.pairs] == [
        ("c", 1, 1),
        ("c", 3, 2),
        ("d", 5, 1),
    ]  # the 0★ survivor reaching 1★ does not fuse again with the 1★ survivor


# --- invariants over random selections --------------------------------------------------------------------

copies_strategy = st.lists(
    st.builds(
        FusionCopy,
        id=st.integers(1, 40),
        card=st.sampled_from(["a", "b"]),
        rarity=st.sampled_from(RARITIES),
        stars=st.integers(0, 5),
        holo=st.booleans(),
        locked=st.booleans(),
    ),
    min_size=0,
    max_size=12,
    unique_by=lambda c: c.id,
)


@settings(max_examples=400, deadline=None)
@given(copies_strategy)
def test_any_accepted_plan_obeys_the_rules(copies: list[FusionCopy]) -> None:
    try:
        plan = plan_fusion(copies)
    except FusionError:
        return
    used = [c.id for p in plan.pairs for c in (p.survivor, p.sacrificed)]
    assert sorted(used) == sorted(c.id for c in copies)  # every copy in exactly one pair
    for pair in plan.pairs:
        assert not pair.sacrificed.holo
        assert not pair.sacrificed.locked
        assert pair.survivor.card == pair.sacrificed.card
        assert pair.target_stars == pair.survivor.stars + 1 <= 5
        if pair.five_as_four:
            assert (pair.sacrificed.stars, pair.survivor.rank > pair.sacrificed.rank) == (5, True)
        else:
            assert pair.sacrificed.stars == pair.survivor.stars
        if pair.sacrificed.rank > pair.survivor.rank:
            assert pair.survivor.holo
            assert pair.rarer_sacrificed
        assert pair.chance_pct == fusion_chance_pct(pair.target_stars, pair.sacrificed.rarity)


# --- "fuse this card": the selection --------------------------------------------------------------------


def test_selection_of_one_level_keeps_the_best_and_sacrifices_the_least_valuable() -> None:
    copies = [copy(1, "basique", 2), copy(2, "or", 2), copy(3, "argent", 2), copy(4, "basique", 2)]
    # survival order: or 2, argent 3, basique 1, basique 4 -> survivors 2, 3; sacrificed 1, 4
    assert fusion_selection(copies, "2") == [2, 3, 1, 4]
    assert fusion_selection(copies, "1") == []


def test_selection_drops_the_odd_copy_least_valuable_first() -> None:
    copies = [copy(1, "argent"), copy(2, "basique"), copy(3, "or")]
    assert fusion_selection(copies, "0") == [3, 2]


def test_selection_never_sacrifices_a_holo_or_a_locked_copy() -> None:
    copies = [copy(1, holo=True), copy(2, holo=True), copy(3, locked=True), copy(4)]
    # survival order 1, 2, 3, 4: two pairs would sacrifice 3 (locked); one pair keeps 1 and sacrifices 4
    assert fusion_selection(copies, "0") == [1, 4]
    assert fusion_selection([copy(1, holo=True), copy(2, locked=True)], "0") == []


def test_chain_selection_covers_every_level_below_five_stars() -> None:
    copies = [copy(1, stars=0), copy(2, stars=0), copy(3, stars=3), copy(4, stars=3), copy(5, stars=3)]
    copies += [copy(6, stars=5), copy(7, stars=5)]
    assert fusion_selection(copies, "a") == [1, 2, 3, 5]


def test_five_as_four_selects_the_rarest_four_and_the_least_rare_free_five() -> None:
    copies = [
        copy(1, "or", 4),
        copy(2, "diamant", 4),
        copy(3, "argent", 5),
        copy(4, "basique", 5),
        copy(5, "basique", 5),
        copy(6, "basique", 5, holo=True),
        copy(7, "basique", 5, locked=True),
    ]
    assert fusion_selection(copies, "f") == [5, 2]  # least rare, then newest, of the free 5★
    assert fusion_selection([copy(1, stars=4), copy(2, stars=5, locked=True)], "f") == []
    assert fusion_selection([copy(1, stars=5), copy(2, stars=5)], "f") == []


def test_an_empty_selection_names_its_reason() -> None:
    assert empty_selection_reason("f") == "hoss.error.fuse.no_five_as_four"
    assert empty_selection_reason("a") == empty_selection_reason("3") == "hoss.error.fuse.nothing"
    with pytest.raises(ValueError, match="unknown fusion selection level"):
        fusion_selection([], "5")


def test_fusable_counts_levels_of_cards_that_can_fuse() -> None:
    copies = [
        copy(1, stars=1, card="a"),
        copy(2, stars=1, card="a"),
        copy(3, stars=2, card="a"),
        copy(4, stars=1, card="b"),
        copy(5, stars=2, card="b"),
        copy(6, stars=5, card="c"),
        copy(7, stars=4, card="c"),
        copy(8, stars=5, card="d"),
        copy(9, stars=5, card="d"),
    ]
    found = fusable(copies)
    assert found == {"a": Counter({1: 2, 2: 1}), "c": Counter({5: 1, 4: 1})}
    assert fusable([]) == {}


@settings(max_examples=300, deadline=None)
@given(copies_strategy, st.sampled_from(SELECTION_LEVELS))
def test_any_nonempty_selection_is_a_plan_the_rules_accept(copies: list[FusionCopy], level: str) -> None:
    one_card = [FusionCopy(c.id, "c", c.rarity, c.stars, c.holo, c.locked) for c in copies]
    ids = fusion_selection(one_card, level)
    if not ids:
        return
    by_id = {c.id: c for c in one_card}
    if level == "f":
        four, five = by_id[ids[1]], by_id[ids[0]]
        if four.rank <= five.rank:  # the 5★-as-4★ is refused unless the 4★ is strictly rarer
            with pytest.raises(FusionError):
                plan_fusion([by_id[i] for i in ids])
            return
    plan = plan_fusion([by_id[i] for i in ids])
    assert len(plan.pairs) * 2 == len(ids)
