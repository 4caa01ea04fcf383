"""D2 dice, terrain bonuses and maluses, family bonuses: the numbers a unit fights with."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.immortals.catalog import Effect
from engine.immortals.rules import Side, fight, numbers, on_terrain, terrain_mod, unit_fields
from engine.immortals.state import Unit
from tests.engine.immortals.helpers import ENGINE, catalog, options, setup, spell, state, stats, unit

FIGHTS = 1000  # x 20 strikes each = 20,000 rolls per law


def wounds(attack: int, defense: int) -> Counter[int]:
    """Seat 0's wounds over 1,000 whole fights (20 strikes each) against a unit that never strikes back
    and cannot die (10,000 HP): one wound per turn, read from the HP after each turn."""
    counts: Counter[int] = Counter()
    target = stats(0, defense, hp=10_000)
    for seed in range(FIGHTS):
        _, trace = fight(random.Random(seed), (stats(attack, 0), target), first=0)
        before = 10_000
        for _, hp in trace:
            counts[before - hp] += 1
            before = hp
    return counts


def binomial(n: int) -> dict[int, float]:
    return {n + k: math.comb(n, k) / 2**n for k in range(n + 1)}


def expected_wounds(attack: int, defense: int) -> dict[int, float]:
    law: dict[int, float] = {}
    for a, pa in binomial(attack).items():
        for d, pd in binomial(defense).items():
            law[max(0, a - d)] = law.get(max(0, a - d), 0.0) + pa * pd
    return law


def close(counts: Counter[int], law: dict[int, float]) -> None:
    """Each value's frequency within 5 standard errors of its probability over 20,000 rolls (at most
    0.018): a wrong law (uniform dice, 0 to 2 per die) misses by far more."""
    total = sum(counts.values())
    assert set(counts) <= {v for v, p in law.items() if p > 0}
    for value, p in law.items():
        assert abs(counts[value] / total - p) <= 5 * math.sqrt(p * (1 - p) / total) + 1e-9, (value, p)


def test_two_attack_dice_roll_two_to_four() -> None:
    """The rulebook's example: against no defense, 2 Attack wounds 2, 3 or 4 (1/4, 1/2, 1/4)."""
    counts = wounds(2, 0)
    assert (min(counts), max(counts)) == (2, 4)
    close(counts, binomial(2))


def test_four_defense_dice_roll_four_to_eight() -> None:
    """8 Attack (8 to 16) against 4 Defense (4 to 8): wounds 0 to 12 with the law of their difference;
    12 needs a Defense roll of 4, and no wound below 0 is taken."""
    counts = wounds(8, 4)
    assert (min(counts), max(counts)) == (0, 12)
    close(counts, expected_wounds(8, 4))


def test_seven_attack_dice_roll_seven_to_fourteen() -> None:
    counts = wounds(7, 0)
    assert (min(counts), max(counts)) == (7, 14)
    close(counts, binomial(7))


def test_no_attack_dice_never_wound() -> None:
    assert wounds(0, 0) == Counter({0: FIGHTS * 20})


def test_the_favourite_terrain_gives_one_attack_and_one_defense_but_no_damage() -> None:
    u = unit("u0-0", attack=4, defense=3, terrain="foret")
    foe = unit("u1-0", attack=4, defense=3, terrain="plaine")
    on_home = numbers(0, (Side(u, None), Side(foe, None)), "foret", 0)
    elsewhere = numbers(0, (Side(u, None), Side(foe, None)), "plaine", 0)
    assert (on_home.terrain_mod, on_home.attack, on_home.defense) == (1, 5, 4)
    assert (elsewhere.terrain_mod, elsewhere.attack, elsewhere.defense) == (0, 4, 3)
    assert on_home.power == elsewhere.power == 4


def test_a_won_fight_on_the_favourite_terrain_deals_the_attack_without_the_terrain_bonus() -> None:
    """Through the engine: a unit on its terrain that wins takes its Attack (4), not 5, from the player."""
    strong = tuple(unit(f"u0-{i}", attack=4, defense=12, terrain="marais") for i in range(4))
    weak = tuple(unit(f"u1-{i}", attack=1, defense=1, terrain="foret") for i in range(4))
    s = state(strong, weak, terrain="marais")
    s, _ = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0])
    s, _ = ENGINE.apply(s, 1, ENGINE.legal_actions(s, 1)[0])
    record = s.history[0]
    assert record.fighters[0].attack == 5
    assert record.winner == 0
    assert record.damage == 4
    assert s.vitality == (30, 26)


@pytest.mark.parametrize(
    ("favourite", "malus"),
    [("foret", "desert"), ("desert", "foret"), ("plaine", "marais"), ("marais", "plaine")],
)
def test_each_malus_pair_of_the_rulebook(favourite: str, malus: str) -> None:
    assert terrain_mod(favourite, malus) == -1
    u = unit("u0-0", attack=4, defense=3, terrain=favourite)
    f = numbers(0, (Side(u, None), Side(unit("u1-0"), None)), malus, 0)
    assert (f.attack, f.defense, f.power) == (3, 2, 4)
    others = [t for t in ("foret", "desert", "plaine", "marais") if t not in (favourite, malus)]
    assert [terrain_mod(favourite, t) for t in others] == [0, 0]


def test_the_malus_pairs_are_exactly_the_four_listed() -> None:
    terrains = ("foret", "desert", "plaine", "marais")
    maluses = {(f, t) for f in terrains for t in terrains if terrain_mod(f, t) == -1}
    assert maluses == {("foret", "desert"), ("desert", "foret"), ("plaine", "marais"), ("marais", "plaine")}


def test_a_family_bonus_acts_only_with_two_cards_of_the_family_in_the_deck() -> None:
    """Demons (+2 damage): one demon among other families gets nothing; a second demon anywhere in the
    deck (even undrawn: the deck counts) gives it to both, and to no unit of another family."""
    cat = catalog()
    others = ("grey_wolf", "skeleton", "elf_scout", "goblin")  # four other families
    lone, _ = _draw(("imp", *others))
    paired, _ = _draw(("imp", "succubus", *others))
    imp_lone = next(u for u in lone if u.card_id == "imp")
    imp_paired = next(u for u in paired if u.card_id == "imp")
    assert (imp_lone.family_bonus, imp_lone.damage) == (False, 0)
    assert (imp_paired.family_bonus, imp_paired.damage) == (True, 2)
    assert cat.family("demons") is not None
    assert not any(u.family_bonus for u in paired if u.family != "demons")


def test_two_copies_of_one_card_are_two_cards_of_its_family() -> None:
    units, _ = _draw(("imp", "imp", "grey_wolf", "skeleton"))
    assert all(u.family_bonus == (u.family == "demons") for u in units)


def _draw(deck: tuple[str, ...]) -> tuple[tuple, tuple]:
    """All four drawn units of seat 0 for every seed until the deck's first card has been drawn."""
    s = ENGINE.new_game(setup(deck, ("grey_wolf", "skeleton", "elf_scout", "goblin")), 1, options())
    for seed in range(2, 50):
        if any(u.card_id == deck[0] for u in s.units[0]):
            break
        s = ENGINE.new_game(setup(deck, ("grey_wolf", "skeleton", "elf_scout", "goblin")), seed, options())
    return s.units[0], s.units[1]


def test_card_bonuses_start_at_level_three() -> None:
    """Imp: +1 Attack from level 3, +1 Attack more from level 5 (data/immortals.json), nothing before."""
    cat = catalog()
    card = cat.card("imp")
    assert card is not None
    assert [(b.level, b.stat, b.value) for b in card.bonuses] == [(3, "attack", 1), (5, "attack", 1)]
    by_level = [Unit(**unit_fields(card, level, cat, False, "u0-0", 0)) for level in range(1, 6)]
    bonus = [0, 0, 1, 1, 2]
    assert [u.attack for u in by_level] == [a + b for a, b in zip(card.attack, bonus, strict=True)]
    assert [u.defense for u in by_level] == list(card.defense)


def test_a_spell_with_a_failed_condition_does_nothing() -> None:
    wrath = spell("s0-0", Effect(stat="attack", value=4), terrain="foret")
    u, foe = unit("u0-0", terrain="desert"), unit("u1-0", terrain="desert")
    on_plain = numbers(0, (Side(u, wrath), Side(foe, None)), "plaine", 0)
    in_forest = numbers(0, (Side(u, wrath), Side(foe, None)), "foret", 0)
    assert (on_plain.spell_acted, on_plain.attack) == (False, 3)
    assert (in_forest.spell_acted, in_forest.attack) == (True, 3 - 1 + 4)


def test_on_terrain_gives_what_a_fight_there_starts_from() -> None:
    """« ... sur lequel elle est habituée à évoluer et qui accroit donc ses caractéristiques défensives
    (+1 Déf.) et offensives (+1 Att.) »: the numbers the duel shows for each unit are those `numbers`
    fights with before spells."""
    u = unit("u0-0", attack=2, defense=4, terrain="desert")
    assert on_terrain(u, "desert") == (3, 5, 1)
    assert on_terrain(u, "foret") == (1, 3, -1)
    assert on_terrain(u, "plaine") == (2, 4, 0)
    for terrain in ("desert", "foret", "plaine", "marais"):
        fought = numbers(0, (Side(u, None), Side(unit("u1-0"), None)), terrain, 0)
        assert on_terrain(u, terrain) == (fought.attack, fought.defense, fought.terrain_mod)
