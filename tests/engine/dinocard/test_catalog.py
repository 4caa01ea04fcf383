"""data/dinocard.json: the shipped catalog has what the game needs, and bad data is refused at load with a
message naming the file, the card (or master) and the reason."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.dinocard.catalog import ABILITY_KINDS, CARD_TYPES, ELEMENTS, RARITIES, DinocardCatalog
from engine.dinocard.packs import pack_problems
from services.infra.catalogs import DATA_DIR, CatalogError, load_catalog

RAW: dict[str, Any] = json.loads((DATA_DIR / "dinocard.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def catalog() -> DinocardCatalog:
    return load_catalog(DATA_DIR / "dinocard.json", DinocardCatalog)


def test_at_least_120_cards_covering_every_element_and_type(catalog: DinocardCatalog) -> None:
    assert len(catalog.cards) >= 120
    pairs = Counter((c.element, c.type) for c in catalog.cards)
    assert set(pairs) == {(e, t) for e in ELEMENTS for t in CARD_TYPES}
    assert {c.rarity for c in catalog.cards} == set(RARITIES)


def test_names_in_french_and_english_are_unique(catalog: DinocardCatalog) -> None:
    for lang in ("fr", "en"):
        names = [getattr(c.name, lang) for c in catalog.cards]
        assert len(set(names)) == len(names), lang
    assert catalog.card("nuage_burger") is not None  # the rulebook's example card


def test_every_capacity_of_the_vocabulary_is_on_some_card(catalog: DinocardCatalog) -> None:
    used = {a.kind for c in catalog.cards for a in c.abilities}
    assert used == set(ABILITY_KINDS)
    assert len(ABILITY_KINDS) >= 15


def test_rarer_dinoz_are_stronger_and_cost_more(catalog: DinocardCatalog) -> None:
    def mean(rarity: str, field: str) -> float:
        values = [
            getattr(c, field) if field != "cost" else c.cost.total
            for c in catalog.cards
            if c.type == "dinoz" and c.rarity == rarity
        ]
        return sum(values) / len(values)

    for field in ("force", "endurance", "cost", "eclosion"):
        assert mean("commune", field) < mean("inhabituelle", field) < mean("rare", field), field


def test_at_least_five_masters_of_rising_level_with_valid_packs(catalog: DinocardCatalog) -> None:
    assert len(catalog.masters) >= 5
    levels = [m.level for m in catalog.masters]
    assert levels == sorted(set(levels))
    sizes = [len(m.pack) for m in catalog.masters]
    assert sizes == sorted(sizes)
    for master in catalog.masters:
        assert pack_problems(master.pack, catalog.ids()) == ()
        assert master.skills.points <= master.level


def error_of(tmp_path: Path, change: Any) -> str:
    raw = json.loads(json.dumps(RAW))
    change(raw)
    path = tmp_path / "dinocard.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_catalog(path, DinocardCatalog)
    return str(info.value).split(": ", 1)[1]


def _card(raw: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in raw["cards"] if c["id"] == card_id)


def _set(card_id: str, **values: Any) -> Any:
    return lambda raw: _card(raw, card_id).update(values)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            _set("moueffe", force=None),
            'card "moueffe" (#0): field eclosion: a dinoz has éclosion, force and endurance',
        ),
        (_set("boule_de_feu", force=2), "only a dinoz has éclosion, force and endurance"),
        (
            _set("moueffe", element="terre"),
            "field \"element\": Input should be 'feu', 'bois', 'eau', 'foudre' or 'ciel'",
        ),
        (_set("moueffe", cost={"colored": 4, "grey": 3}), "at most 6 bubbles in all"),
        (
            _set("moueffe", abilities=[{"kind": "draw", "value": 1}]),
            "draw is not a capacity of a card of type dinoz",
        ),
        (_set("moueffe", abilities=[{"kind": "flying", "value": 2}]), "flying: a keyword has no value"),
        (
            _set("moueffe", abilities=[{"kind": "poison"}]),
            "poison: a keyword has no value, every other kind a value",
        ),
        (_set("moueffe", abilities=[{"kind": "teleport"}]), 'field "abilities.0.kind": Input should be'),
        (
            _set(
                "boule_de_feu", abilities=[{"kind": "damage_dinoz", "value": 1}, {"kind": "draw", "value": 1}]
            ),
            "an incantation has exactly one effect",
        ),
        (
            _set("ecorce", abilities=[{"kind": "endurance", "value": 1}, {"kind": "weaken", "value": 1}]),
            "an enchantement has effects, all blessings or all curses",
        ),
        (_set("moueffe", eclosion=0), 'field "eclosion": Input should be greater than or equal to 1'),
    ],
)
def test_a_bad_card_is_refused_with_its_reason(tmp_path: Path, change: Any, message: str) -> None:
    assert message in error_of(tmp_path, change)


def test_a_master_with_an_invalid_pack_is_refused(tmp_path: Path) -> None:
    def four_copies(raw: dict[str, Any]) -> None:
        raw["masters"][0]["pack"][:4] = ["moueffe"] * 4

    assert 'master "maitre_moueffe" (#0): invalid pack: too_many_copies moueffe' in error_of(
        tmp_path, four_copies
    )

    def unknown(raw: dict[str, Any]) -> None:
        raw["masters"][1]["pack"][0] = "ghost"

    assert "invalid pack: unknown_card ghost" in error_of(tmp_path, unknown)


def test_masters_must_rise_in_level_and_spend_at_most_their_level_in_points(tmp_path: Path) -> None:
    def swapped(raw: dict[str, Any]) -> None:
        raw["masters"][0]["level"] = 99 // 3

    assert "masters must come in strictly rising level" in error_of(tmp_path, swapped)

    def greedy(raw: dict[str, Any]) -> None:
        raw["masters"][0]["skills"] = {"life": 5}

    assert "5 skill points for level 1 (one per level)" in error_of(tmp_path, greedy)


def test_fewer_than_five_masters_are_refused(tmp_path: Path) -> None:
    assert 'field "masters": Tuple should have at least 5 items' in error_of(
        tmp_path, lambda raw: raw.update(masters=raw["masters"][:4])
    )
