"""The catalog (data/immortals.json) meets the issue's sizes and the models refuse what the rules forbid."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from engine.immortals.catalog import FIRST_CARD_BONUS_LEVEL, STATS, TERRAINS, ImmortalsCatalog
from tests.engine.immortals.helpers import ROOT, catalog


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "data" / "immortals.json").read_text("utf-8"))
    return data


def test_sixty_units_in_eight_families_and_twenty_spells_in_both_languages() -> None:
    cat = catalog()
    assert len(cat.cards) >= 60
    assert len({c.family for c in cat.cards}) >= 8
    assert len(cat.spells) >= 20
    names = [c.name for c in cat.cards] + [s.name for s in cat.spells] + [f.name for f in cat.families]
    assert all(n.fr and n.en for n in names)
    assert len({c.name.fr for c in cat.cards}) == len(cat.cards)
    assert len({c.name.en for c in cat.cards}) == len(cat.cards)


def test_every_family_has_a_tier_one_unit_and_every_terrain_is_a_favourite() -> None:
    cat = catalog()
    for family in cat.families:
        units = [c for c in cat.cards if c.family == family.id]
        assert any(c.tier == 1 for c in units), family.id
    assert {c.terrain for c in cat.cards} == set(TERRAINS)


def test_stats_improve_with_the_level_and_card_bonuses_start_at_level_three() -> None:
    for card in catalog().cards:
        totals = [a + d for a, d in zip(card.attack, card.defense, strict=True)]
        assert totals == sorted(set(totals)), card.id
        assert min(b.level for b in card.bonuses) == FIRST_CARD_BONUS_LEVEL


def test_spells_use_every_kind_of_effect_and_condition() -> None:
    cat = catalog()
    used = {e.stat for s in cat.spells for e in s.effects}
    assert used == set(STATS)
    assert any(s.terrain for s in cat.spells)
    assert any(s.family for s in cat.spells)
    assert any(e.target == "foe" for s in cat.spells for e in s.effects)


def _refused(data: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        ImmortalsCatalog.model_validate(data)


def test_a_unit_whose_stats_fall_with_the_level_is_refused() -> None:
    data = raw()
    data["cards"][0]["attack"] = [4, 3, 5, 6, 7]
    _refused(data, "never decreases")


def test_a_level_that_improves_nothing_is_refused() -> None:
    data = raw()
    card = data["cards"][0]
    card["attack"][1] = card["attack"][0]
    card["defense"][1] = card["defense"][0]
    _refused(data, "each level improves")


def test_a_unit_without_its_level_three_bonus_is_refused() -> None:
    data = raw()
    data["cards"][0]["bonuses"] = [{"level": 4, "stat": "attack", "value": 1}]
    _refused(data, "level 3")


def test_a_unit_of_an_unknown_family_or_terrain_is_refused() -> None:
    data = raw()
    data["cards"][0]["family"] = "gnomes"
    _refused(data, "unknown family")
    data = raw()
    data["cards"][0]["terrain"] = "volcan"
    _refused(data, "terrain")


def test_a_permanent_bonus_cannot_heal_the_player() -> None:
    data = raw()
    data["families"][0]["bonus"] = {"stat": "vitality", "value": 2}
    _refused(data, "permanent bonus")


def test_a_spell_of_an_unknown_family_or_a_harmful_heal_is_refused() -> None:
    data = raw()
    data["spells"][0]["family"] = "gnomes"
    _refused(data, "unknown family")
    data = raw()
    data["spells"][0]["effects"] = [{"stat": "vitality", "value": 3, "target": "foe"}]
    _refused(data, "helps the caster")


def test_too_few_spells_or_families_are_refused() -> None:
    data = raw()
    data["spells"] = data["spells"][:19]
    _refused(data, "spells")
    data = raw()
    data["families"] = data["families"][:7]
    _refused(data, "families")


def test_level_thresholds_must_increase() -> None:
    data = raw()
    data["level_xp"] = [30, 30, 160, 300]
    _refused(data, "strictly increasing")


def test_the_sorted_ids_of_a_tier_follow_the_cards_of_the_catalog_they_are_read_from() -> None:
    """The practice mirror deck picks among a tier's ids in order; a copy of the catalog with other cards
    (the tests' `model_copy`) reads its own, not the table of the catalog it was copied from."""
    cat = catalog()
    for tier in (1, 2, 3):
        assert cat.sorted_ids(tier) == tuple(sorted(c.id for c in cat.cards if c.tier == tier))
    assert cat.sorted_ids() == tuple(sorted(c.id for c in cat.cards))
    assert cat.sorted_ids(4) == ()
    fewer = cat.model_copy(update={"cards": tuple(c for c in cat.cards if c.tier != 3)})
    assert fewer.sorted_ids(3) == ()
    assert fewer.sorted_ids() == tuple(sorted(c.id for c in fewer.cards))
    assert cat.sorted_ids(3) == tuple(sorted(c.id for c in cat.cards if c.tier == 3))
