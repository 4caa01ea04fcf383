"""data/pillz.json: the shipped catalog loads and has the counts the game needs (issue 6 section 3)."""

from __future__ import annotations

import json
from collections import Counter
from statistics import mean

import pytest

from engine.pillz.catalog import (
    CHARACTER_ABILITIES,
    DAMAGE_RANGE,
    LEADER_ABILITIES,
    POWER_RANGE,
    PillzCatalog,
)
from services.infra.catalogs import DATA_DIR, load_catalog


@pytest.fixture(scope="module")
def catalog() -> PillzCatalog:
    return load_catalog(DATA_DIR / "pillz.json", PillzCatalog)


def test_at_least_60_characters_in_at_least_6_clans(catalog: PillzCatalog) -> None:
    assert len(catalog.cards) >= 60
    assert len(catalog.clans) >= 6
    assert {c.clan for c in catalog.cards} == {c.id for c in catalog.clans}


def test_each_clan_has_exactly_one_leader_and_ashigaru_counter_attacks(catalog: PillzCatalog) -> None:
    leaders = Counter(c.clan for c in catalog.cards if c.leader)
    assert leaders == Counter({clan.id: 1 for clan in catalog.clans})
    kinds = {c.clan: c.ability.kind for c in catalog.cards if c.leader and c.ability}
    assert kinds.pop("ashigaru") == "counter_attack"
    assert set(kinds.values()) <= LEADER_ABILITIES - {"counter_attack"}
    taisho = next(c for c in catalog.cards if c.leader and c.clan == "ashigaru")
    assert taisho.ability is not None
    assert taisho.ability.name.fr == "Contre-attaque"


def test_12_to_18_characters_have_an_ability_every_kind_at_least_once(catalog: PillzCatalog) -> None:
    kinds = [c.ability.kind for c in catalog.cards if not c.leader and c.ability is not None]
    assert 12 <= len(kinds) <= 18
    assert set(kinds) == CHARACTER_ABILITIES


def test_stars_are_spread_with_more_low_than_high(catalog: PillzCatalog) -> None:
    stars = Counter(c.stars for c in catalog.cards)
    assert set(stars) == {1, 2, 3, 4, 5}
    assert stars[1] + stars[2] + stars[3] > 2 * (stars[4] + stars[5])


def test_stats_in_range_and_stronger_with_stars(catalog: PillzCatalog) -> None:
    products = {}
    for stars in range(1, 6):
        cards = [c for c in catalog.cards if c.stars == stars]
        for c in cards:
            assert POWER_RANGE[stars][0] <= c.power <= POWER_RANGE[stars][1]
            assert DAMAGE_RANGE[stars][0] <= c.damage <= DAMAGE_RANGE[stars][1]
        products[stars] = mean(c.power * c.damage for c in cards)
    assert [products[s] for s in range(1, 6)] == sorted(products.values())


def test_abilities_are_paid_with_lower_stats(catalog: PillzCatalog) -> None:
    for stars in range(1, 6):
        plain = [c.power * c.damage for c in catalog.cards if c.stars == stars and c.ability is None]
        gifted = [c.power * c.damage for c in catalog.cards if c.stars == stars and c.ability is not None]
        if plain and gifted:
            assert max(gifted) <= min(plain)


def test_names_are_in_french_and_english(catalog: PillzCatalog) -> None:
    assert all(c.name.fr and c.name.en for c in catalog.cards)
    assert len({c.name.fr for c in catalog.cards}) == len(catalog.cards)


def test_the_json_and_the_abilities_page_are_what_the_generator_writes() -> None:
    """data/pillz.json and docs/pillz/abilities.md are generated from tools/pillz_card_source.py: an edit
    of one without regenerating the others fails here."""
    from tools.gen_pillz_catalog import ROOT, build, doc

    data = build()
    assert json.loads((DATA_DIR / "pillz.json").read_text(encoding="utf-8")) == data
    assert (ROOT / "docs" / "pillz" / "abilities.md").read_text(encoding="utf-8") == doc(data)


def test_the_leaders_that_act_on_lost_rounds_have_their_values(catalog: PillzCatalog) -> None:
    values = {c.id: (c.ability.kind, c.ability.value) for c in catalog.cards if c.leader and c.ability}
    assert values["corsaires-admiral-roxane-porthole"] == ("war_chest", 2)
    assert values["sorcieres-mother-greyhaze"] == ("war_chest", 1)
    assert values["moines-abbess-ysolde"] == ("blessing", 3)
