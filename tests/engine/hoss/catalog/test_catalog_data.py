"""data/hoss.json: complete lines for every race x class, the 12 buffs, names, race and class identities,
rank progression and the balance budget of docs/hoss/balance.md.

The budget model is restated here on purpose (not imported from tools/gen_hoss_catalog.py): the JSON is the
source of truth and may be edited by hand, and this is the check that it still follows balance.md.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from itertools import pairwise
from typing import get_args

import pytest

from engine.hoss.bonus import attack_interval_ms
from engine.hoss.bonus import hits_per_round as engine_hits
from engine.hoss.catalog import (
    ATTACKING_CLASSES,
    CLASSES,
    ELEMENT_STATUS,
    RACES,
    BuffCard,
    BuffEffect,
    CreatureCard,
    HossCatalog,
)
from services.infra.catalogs import DATA_DIR, load_catalog
from tools.hoss_budget import (
    CLASS_DODGE,
    CLASS_FACTOR,
    D1,
    HEAL_WEIGHT,
    RACE_FACTOR,
    RANK_SCALE,
    STATUS_WEIGHT,
    T1,
    hits_per_round,
)
from tools.hoss_budget import dps as budget_dps

PATH = DATA_DIR / "hoss.json"
PREFIX = {"squelette": "sq", "orc": "orc", "sylvestre": "syl", "humain": "hum"}

# --- the budget model of docs/hoss/balance.md (its numbers: tools/hoss_budget.py) ---------------------------


BUDGET_TOLERANCE = 0.03  # every card within ±3 % of its budget
MAX_SPREAD = 1.25  # per rank, strongest / weakest attacker power, all classes and races together
MAX_MARKS_PER_SECOND = 0.25  # sum of a card's status chances / interval
FAST = 1.5  # an interval under this is a fast hitter
FAST_MAX_STATUS = 0.15  # ...whose every status chance stays at or under this


def dps(c: CreatureCard) -> float:
    """ATK x the hits per round the budget expects at the card's interval / 5 s (every round restarts the
    attack cycle, so speed counts by whole hits per round)."""
    return budget_dps(c.atk, c.interval)


def dps_eff(c: CreatureCard) -> float:
    crit = 1 + c.crit_chance * (0.5 + c.crit_damage)
    marks = sum(chance * STATUS_WEIGHT[s] for s, chance in c.statuses.items())
    return dps(c) * (crit + marks + c.heal_chance * HEAL_WEIGHT)


def ehp(c: CreatureCard) -> float:
    return c.pv / ((1 - CLASS_DODGE[c.cls] - c.dodge_bonus) * (1 - c.deflect_chance))


def power(c: CreatureCard) -> float:
    return dps_eff(c) * ehp(c)


def protection(c: CreatureCard) -> float:
    avoid = (1 - c.damage_reduction) * (1 - c.block) * (1 - CLASS_DODGE["defenseur"])
    return c.pv * (1 + 0.5 * c.deflect_chance + 0.5 * c.heal_chance) * (1 + 0.05 * len(c.elements)) / avoid


def budget(c: CreatureCard) -> float:
    if c.cls == "defenseur":
        return D1 * RANK_SCALE[c.rank]
    return T1 * RANK_SCALE[c.rank] ** 2 * CLASS_FACTOR.get(c.cls, 1.0) * RACE_FACTOR.get(c.race, 1.0)


def value(c: CreatureCard) -> float:
    return protection(c) if c.cls == "defenseur" else power(c)


# --- fixtures -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def catalog() -> HossCatalog:
    return load_catalog(PATH, HossCatalog)


@pytest.fixture(scope="module")
def creatures(catalog: HossCatalog) -> list[CreatureCard]:
    return [c for c in catalog.cards if isinstance(c, CreatureCard)]


@pytest.fixture(scope="module")
def attackers(creatures: list[CreatureCard]) -> list[CreatureCard]:
    return [c for c in creatures if c.cls != "defenseur"]


@pytest.fixture(scope="module")
def lines(creatures: list[CreatureCard]) -> dict[str, list[CreatureCard]]:
    by_line: dict[str, list[CreatureCard]] = defaultdict(list)
    for card in creatures:
        by_line[card.line].append(card)
    return dict(by_line)


@pytest.fixture(scope="module")
def by_id(creatures: list[CreatureCard]) -> dict[str, CreatureCard]:
    return {c.id: c for c in creatures}


# --- lines --------------------------------------------------------------------------------------------------


def test_there_are_at_least_28_lines_one_per_race_and_class(lines: dict[str, list[CreatureCard]]) -> None:
    assert len(lines) >= 28
    kinds = {(cards[0].race, cards[0].cls) for cards in lines.values()}
    assert kinds == {(race, cls) for race in RACES for cls in CLASSES}


def test_every_line_is_complete(lines: dict[str, list[CreatureCard]]) -> None:
    for line, cards in lines.items():
        firsts = [c for c in cards if c.rank == 1]
        seconds = [c for c in cards if c.rank == 2]
        thirds = [c for c in cards if c.rank == 3]
        assert len(firsts) == 1, line
        assert 1 <= len(seconds) <= 2, line
        assert all(s.parent == firsts[0].id for s in seconds), line
        assert sorted(t.parent or "" for t in thirds) == sorted(s.id for s in seconds), line
        assert {(c.race, c.cls) for c in cards} == {(firsts[0].race, firsts[0].cls)}, line


def test_ids_follow_the_naming_scheme(lines: dict[str, list[CreatureCard]]) -> None:
    for line, cards in lines.items():
        first = cards[0]
        assert line == f"{PREFIX[first.race]}_{first.cls}"
        for card in cards:
            if card.rank == 1:
                assert card.id == f"{line}_1"
            else:
                assert card.id[:-1] == f"{line}_{card.rank}", card.id
                assert card.id[-1] in "ab", card.id
            if card.rank == 3:
                assert card.parent == f"{line}_2{card.id[-1]}", card.id


def test_about_one_line_in_five_has_two_paths(lines: dict[str, list[CreatureCard]]) -> None:
    two = [line for line, cards in lines.items() if sum(c.rank == 2 for c in cards) == 2]
    assert 0.12 <= len(two) / len(lines) <= 0.28, two


# --- buffs and names ----------------------------------------------------------------------------------------


def test_each_of_the_12_buff_effects_has_exactly_one_card(catalog: HossCatalog) -> None:
    buffs = [c for c in catalog.cards if isinstance(c, BuffCard)]
    assert Counter(b.effect for b in buffs) == Counter(get_args(BuffEffect))
    assert len(buffs) == 12
    for buff in buffs:
        assert buff.id == f"buff_{buff.effect}"
        assert 0.0 < buff.power <= 0.5, buff.id  # base strengths; rarity and stars raise them


def test_names_are_filled_and_unique_in_each_language(catalog: HossCatalog) -> None:
    for lang in ("fr", "en"):
        names = [getattr(c.name, lang).strip() for c in catalog.cards]
        assert all(names), lang
        duplicates = [n for n, count in Counter(names).items() if count > 1]
        assert not duplicates, (lang, duplicates)


# --- identities ---------------------------------------------------------------------------------------------


def test_defenders_never_strike_and_block(creatures: list[CreatureCard]) -> None:
    defenders = [c for c in creatures if c.cls == "defenseur"]
    assert len(defenders) >= 12
    for card in defenders:
        assert card.atk == 0, card.id
        assert card.interval == 5.0, card.id
        assert card.block > 0, card.id
        assert card.damage_reduction > 0, card.id
        assert not card.statuses, card.id
        assert card.crit_chance == 0, card.id
        assert card.dodge_bonus == 0, card.id


def test_race_traits_on_every_attacker(attackers: list[CreatureCard]) -> None:
    for card in attackers:
        if card.race == "orc":
            assert card.statuses.get("saignement", 0) > 0, card.id
        if card.race == "humain":
            assert card.statuses.get("bris", 0) > 0, card.id
        if card.race == "sylvestre":
            assert card.heal_chance > 0, card.id
        else:
            assert card.heal_chance == 0, card.id


def test_orcs_hit_harder_and_slower_and_sylvans_faster_than_the_same_class(
    attackers: list[CreatureCard],
) -> None:
    firsts = {(c.race, c.cls): c for c in attackers if c.rank == 1}
    for cls in ATTACKING_CLASSES:
        others = [firsts[(race, cls)] for race in ("squelette", "humain")]
        orc, sylvan = firsts[("orc", cls)], firsts[("sylvestre", cls)]
        assert all(orc.atk > o.atk and orc.interval > o.interval for o in others), cls
        assert all(sylvan.interval < o.interval for o in others), cls


def test_sylvans_deflect_where_the_rulebook_says(creatures: list[CreatureCard]) -> None:
    for card in creatures:
        deflects = card.race == "sylvestre" and card.cls in ("guerrier", "defenseur")
        assert (card.deflect_chance > 0) == deflects, card.id
        if card.race == "sylvestre" and card.cls == "defenseur":
            assert card.heal_chance > 0, card.id  # its blocks heal too


def test_an_element_carries_its_status_and_every_mage_has_one(creatures: list[CreatureCard]) -> None:
    for card in creatures:
        if card.cls == "mage":
            assert card.elements, card.id
        if card.cls == "defenseur":
            continue  # a Défenseur's element is worn for its immunity; it never strikes
        for element in card.elements:
            assert card.statuses.get(ELEMENT_STATUS[element], 0) > 0, card.id
        element_statuses = set(ELEMENT_STATUS.values())
        assert {s for s in card.statuses if s in element_statuses} == {
            ELEMENT_STATUS[e] for e in card.elements
        }, card.id


def test_class_roles_within_each_race_and_rank(attackers: list[CreatureCard]) -> None:
    groups: dict[tuple[str, int], list[CreatureCard]] = defaultdict(list)
    for card in attackers:
        groups[(card.race, card.rank)].append(card)
    for key, cards in groups.items():
        of = {cls: [c for c in cards if c.cls == cls] for cls in ATTACKING_CLASSES}
        rest = {cls: [c for c in cards if c.cls != cls] for cls in ATTACKING_CLASSES}
        assert min(c.pv for c in of["cavalier"]) > max(c.pv for c in rest["cavalier"]), key
        assert max(c.pv for c in of["assassin"]) < min(c.pv for c in rest["assassin"]), key
        assert min(c.crit_chance for c in of["assassin"]) > max(c.crit_chance for c in rest["assassin"]), key
        assert min(c.dodge_bonus for c in of["assassin"]) > max(c.dodge_bonus for c in rest["assassin"]), key
        assert max(c.interval for c in of["archer"]) < min(c.interval for c in rest["archer"]), key
        melee = [c for c in cards if c.cls in ("guerrier", "cavalier", "lancier")]
        assert max(c.pv for c in of["archer"]) < min(c.pv for c in melee), key


def test_status_chances_are_smaller_on_fast_hitters(attackers: list[CreatureCard]) -> None:
    for card in attackers:
        assert sum(card.statuses.values()) / card.interval <= MAX_MARKS_PER_SECOND, card.id
        if card.interval < FAST:
            assert max(card.statuses.values(), default=0) <= FAST_MAX_STATUS, card.id


# --- progression and balance --------------------------------------------------------------------------------


def test_each_rank_is_stronger_than_the_one_it_evolves_from(
    creatures: list[CreatureCard], by_id: dict[str, CreatureCard]
) -> None:
    for card in creatures:
        if card.parent is None:
            continue
        parent = by_id[card.parent]
        assert card.pv > parent.pv, card.id
        if card.cls == "defenseur":
            assert card.block >= parent.block, card.id
            assert card.damage_reduction >= parent.damage_reduction, card.id
        else:
            assert dps(card) > dps(parent), card.id
            assert card.interval <= parent.interval, card.id


def test_every_attacker_hits_every_round_and_no_interval_reaches_5_seconds(
    attackers: list[CreatureCard],
) -> None:
    """Each round restarts the attack cycle, so a 5 s interval would never hit: every attacker's interval is
    under 5 s (a Défenseur's 5.0 only says it never strikes)."""
    for card in attackers:
        assert card.interval < 5.0, card.id
        assert engine_hits(round(card.interval * 1000)) >= 1, card.id


def test_the_budget_prices_hits_per_round_between_no_bonus_and_the_most_a_copy_carries(
    attackers: list[CreatureCard],
) -> None:
    """The budget's expected hits per round lie between the card's hits with no speed bonus and with the
    most the model counts (Divin 5★ +70 % and a +20 % team bonus), and differ from 5 s / interval, the old
    model (which counted hits that fall in the next round)."""
    off_old_model = 0
    for card in attackers:
        ms = round(card.interval * 1000)
        expected = hits_per_round(card.interval)
        assert engine_hits(ms) <= expected <= engine_hits(attack_interval_ms(ms, 9000)), card.id
        off_old_model += abs(expected / (5.0 / card.interval) - 1) > 0.05
    assert off_old_model > len(attackers) // 2


def test_no_two_intervals_of_the_catalog_are_priced_the_same(attackers: list[CreatureCard]) -> None:
    """Within a band of equal hits per round an interval only sets how much speed bonus gains a hit (and how
    much Gel loses one): the budget prices every catalog interval apart, the faster the dearer."""
    intervals = sorted({card.interval for card in attackers})
    prices = [hits_per_round(interval) for interval in intervals]
    assert all(a > b for a, b in pairwise(prices)), list(zip(intervals, prices, strict=True))


def test_every_card_meets_its_budget(creatures: list[CreatureCard]) -> None:
    for card in creatures:
        assert value(card) / budget(card) == pytest.approx(1.0, abs=BUDGET_TOLERANCE), card.id


def test_classes_and_races_are_within_the_stated_spread_at_each_rank(attackers: list[CreatureCard]) -> None:
    for rank in (1, 2, 3):
        powers = [power(c) for c in attackers if c.rank == rank]
        assert max(powers) / min(powers) <= MAX_SPREAD, rank


def test_rank_scale_matches_the_budget(creatures: list[CreatureCard], by_id: dict[str, CreatureCard]) -> None:
    """Per dimension (PV and DPS for an attacker, EHP_def for a Défenseur): Rang 2 about x1.5-1.7 of its Rang 1,
    a Maître about x2.2-2.6, and above its own Rang 2."""
    for card in creatures:
        if card.parent is None:
            continue
        first = by_id[card.parent] if card.rank == 2 else by_id[by_id[card.parent].parent or ""]
        ratio = value(card) / value(first)
        scale = ratio if card.cls == "defenseur" else math.sqrt(ratio)
        low, high = (1.5, 1.7) if card.rank == 2 else (2.2, 2.6)
        assert low <= scale <= high, (card.id, round(scale, 3))
        if card.rank == 3:
            assert value(card) > value(by_id[card.parent or ""]), card.id


def test_two_paths_offer_a_real_choice(lines: dict[str, list[CreatureCard]]) -> None:
    """The two Rang 2 of a line differ in element, or in shape (PV vs DPS, rhythm, block), not only in name."""
    for line, cards in lines.items():
        seconds = [c for c in cards if c.rank == 2]
        if len(seconds) != 2:
            continue
        a, b = seconds
        if a.elements != b.elements:
            continue
        if a.cls == "defenseur":
            gap = max(abs(a.block - b.block), abs(a.damage_reduction - b.damage_reduction))
            assert gap >= 0.05, line
        else:
            pv_dps = (a.pv / b.pv) / (dps(a) / dps(b))
            assert abs(math.log(pv_dps)) > 0.15 or abs(math.log(a.interval / b.interval)) > 0.1, line
