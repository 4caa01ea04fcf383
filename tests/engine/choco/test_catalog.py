"""data/choco.json: the rulebook's 145 cards, six rarities whose stats rise, a valid effect vocabulary all
used, and a broken card rejected with a message naming the card and field."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from statistics import mean
from typing import Any

import pytest

from engine.choco.catalog import (
    EFFECT_PA,
    EFFECT_PV,
    NORMAL_PA,
    NORMAL_PV,
    RARITIES,
    STEP_KINDS,
    ChocoCard,
    ChocoCatalog,
    stat_ranges,
)
from services.choco import GAME
from services.choco.names import card_fields
from services.infra.catalogs import DATA_DIR, CatalogError, load_catalog
from services.infra.messages import Text

PATH = DATA_DIR / "choco.json"


@pytest.fixture(scope="module")
def catalog() -> ChocoCatalog:
    return load_catalog(PATH, ChocoCatalog)


def wizards(catalog: ChocoCatalog, card_type: str | None = None) -> list[ChocoCard]:
    return [c for c in catalog.cards if c.type != "pure" and (card_type is None or c.type == card_type)]


def test_the_rulebook_counts(catalog: ChocoCatalog) -> None:
    assert catalog.game == "choco"
    assert len(catalog.cards) == 145
    assert len(catalog.of_type("normal")) == 92
    assert len(catalog.of_type("effect")) == 35
    assert len(catalog.of_type("pure")) == 18


def test_rarities_are_all_present_and_commoner_cards_are_more_numerous(catalog: ChocoCatalog) -> None:
    counts = [sum(1 for c in catalog.cards if c.rarity == r) for r in RARITIES]
    assert all(counts), counts
    assert counts == sorted(counts, reverse=True)
    assert len(set(counts)) == len(counts)
    # The documented odds of a chocolate frog (one card of the catalog at random), to the percent.
    assert [round(100 * n / 145) for n in counts] == [30, 22, 17, 13, 10, 8]


@pytest.mark.parametrize("card_type", ["normal", "effect", None])
def test_mean_pa_and_pv_strictly_increase_with_rarity(catalog: ChocoCatalog, card_type: str | None) -> None:
    for stat in ("pa", "pv"):
        means = [
            mean(getattr(c, stat) for c in wizards(catalog, card_type) if c.rarity == r) for r in RARITIES
        ]
        assert all(a < b for a, b in itertools.pairwise(means)), (stat, means)


def test_stats_stay_in_the_documented_ranges(catalog: ChocoCatalog) -> None:
    for card in wizards(catalog):
        (pa_low, pa_high), (pv_low, pv_high) = stat_ranges(card.type, card.rarity)
        assert card.pa is not None, card.id
        assert pa_low <= card.pa <= pa_high, card.id
        assert card.pv is not None, card.id
        assert pv_low <= card.pv <= pv_high, card.id
    for table in (NORMAL_PA, NORMAL_PV, EFFECT_PA, EFFECT_PV):
        lows = [table[r][0] for r in RARITIES]
        highs = [table[r][1] for r in RARITIES]
        assert lows == sorted(lows)
        assert highs == sorted(set(highs))


def test_effect_wizards_are_weaker_in_raw_stats(catalog: ChocoCatalog) -> None:
    for rarity in RARITIES:
        assert EFFECT_PA[rarity][1] < NORMAL_PA[rarity][1]
        assert EFFECT_PV[rarity][1] < NORMAL_PV[rarity][1]
        normal = mean(c.pa + c.pv for c in wizards(catalog, "normal") if c.rarity == rarity)  # type: ignore[operator]
        effect = mean(c.pa + c.pv for c in wizards(catalog, "effect") if c.rarity == rarity)  # type: ignore[operator]
        assert effect < normal, rarity


def test_each_type_has_what_the_rules_give_it(catalog: ChocoCatalog) -> None:
    for card in catalog.cards:
        if card.type == "pure":
            assert card.pa is None, card.id
            assert card.pv is None, card.id
            assert card.effect is not None, card.id
            assert card.effect.trigger == "from_hand", card.id
        elif card.type == "effect":
            assert card.pa is not None, card.id
            assert card.pv is not None, card.id
            assert card.effect is not None, card.id
            assert card.effect.trigger in ("on_place", "continuous"), card.id
        else:
            assert card.pa is not None, card.id
            assert card.pv is not None, card.id
            assert card.effect is None, card.id


def test_names_are_unique_per_language_and_not_blank(catalog: ChocoCatalog) -> None:
    for lang in ("fr", "en"):
        names = [c.name.get(lang) for c in catalog.cards]
        assert all(n.strip() for n in names)
        assert len(set(names)) == len(names), lang
    effect_names = [c.effect.name.get(lang) for c in catalog.cards if c.effect for lang in ("fr", "en")]
    assert all(n.strip() for n in effect_names)


def test_every_effect_kind_is_used(catalog: ChocoCatalog) -> None:
    used = {step.kind for c in catalog.cards if c.effect for step in c.effect.steps}
    assert sorted(used) == sorted(STEP_KINDS)
    triggers = {c.effect.trigger for c in catalog.cards if c.effect}
    assert triggers == {"on_place", "continuous", "from_hand"}
    assert any(c.effect and c.effect.stays for c in catalog.cards)


def test_the_documentation_lists_every_card_and_kind(catalog: ChocoCatalog) -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "choco" / "cards.md").read_text(encoding="utf-8")
    for kind in STEP_KINDS:
        assert f"`{kind}`" in doc, kind
    for card in catalog.cards:
        if card.effect is not None:
            assert card.effect.text.fr in doc, card.id
            assert card.effect.text.en in doc, card.id


# --- broken cards ------------------------------------------------------------------------------------------


def broken(tmp_path: Path, index: int, change: dict[str, Any]) -> str:
    data = json.loads(PATH.read_text(encoding="utf-8"))
    card = data["cards"][index]
    for key, value in change.items():
        target = card
        *path, last = key.split(".")
        for part in path:
            target = target[part] if not part.isdigit() else target[int(part)]
        target[last] = value
    path_out = tmp_path / "choco.json"
    path_out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_catalog(path_out, ChocoCatalog)
    return str(info.value)


def card_index(kind: str) -> tuple[int, str]:
    data = json.loads(PATH.read_text(encoding="utf-8"))
    index = next(i for i, c in enumerate(data["cards"]) if c["type"] == kind)
    return index, data["cards"][index]["id"]


def test_a_negative_pv_names_the_card_and_field(tmp_path: Path) -> None:
    index, card_id = card_index("normal")
    message = broken(tmp_path, index, {"pv": -3})
    assert f'card "{card_id}" (#{index}): field "pv": Input should be greater than or equal to 1' in message


def test_an_unknown_effect_kind_names_the_card_and_field(tmp_path: Path) -> None:
    index, card_id = card_index("effect")
    message = broken(tmp_path, index, {"effect.steps.0.kind": "teleport"})
    assert f'card "{card_id}" (#{index}): field "effect.steps.0": Input tag \'teleport\'' in message


def test_stats_outside_the_rarity_range_are_rejected(tmp_path: Path) -> None:
    index, card_id = card_index("normal")
    message = broken(tmp_path, index, {"pa": 15})
    assert f'card "{card_id}" (#{index}): field pa: normal bronze_1 needs 1 to 3, found 15' in message


def test_a_pure_effect_with_pv_is_rejected(tmp_path: Path) -> None:
    index, card_id = card_index("pure")
    message = broken(tmp_path, index, {"pv": 3})
    assert f'card "{card_id}" (#{index}): field pv: a pure effect has no PA or PV' in message


# --- /card ---------------------------------------------------------------------------------------------------


def test_card_shows_localized_fields(catalog: ChocoCatalog) -> None:
    from discord_app.render import text

    assert GAME.key == "choco"
    assert GAME.catalog_model is ChocoCatalog
    wizard = catalog.card("baba_yaga")
    assert wizard is not None
    assert wizard.effect is not None
    fields = card_fields(wizard, catalog, "en")
    shown = {text(label, "en"): text(value, "en") for label, value in fields}
    assert shown["Rarity"] == "Gold 2"
    assert shown["Type"] == "Effect wizard"
    assert shown["AP"] == str(wizard.pa)
    assert shown["HP"] == str(wizard.pv)
    assert wizard.effect.text.en in shown["Effect"]
    assert wizard.effect.text.fr not in shown["Effect"]
    shown_fr = {text(label, "fr"): text(value, "fr") for label, value in card_fields(wizard, catalog, "fr")}
    assert shown_fr["Rareté"] == "Or 2"
    assert wizard.effect.text.fr in shown_fr["Effet"]
    pure = catalog.of_type("pure")[0]
    labels = [label for label, _ in card_fields(pure, catalog, "fr")]
    assert Text("choco.label.pa") not in labels
    assert Text("choco.label.effect") in labels
