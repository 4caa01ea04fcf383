"""Catalog loading must reject a broken file with a message naming file, card and field; `/card` search
must find cards by their name in the reader's language, whatever the accents."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.cards import CatalogBase, LocalizedText
from services.infra import games
from services.infra.catalogs import (
    DATA_DIR,
    CardIndex,
    CardRef,
    CatalogError,
    fold,
    load_all,
    load_catalog,
)
from tests.engine.game_checks import all_checks
from tests.fixtures.fixture_game import FixtureCard, FixtureCatalog
from tests.support.registries import every_game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "catalogs"


FIXTURE_SPEC = games.GameSpec(
    key="fixture", name_key="game.fixture", command_group="fixture", catalog_model=FixtureCatalog
)


def shown(name: str) -> str:
    """How the loader names a fixture file (relative to the working directory when inside it)."""
    path = FIXTURES / name
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def error_of(name: str) -> str:
    with pytest.raises(CatalogError) as info:
        load_catalog(FIXTURES / name, FixtureCatalog)
    return str(info.value)


# --- loading ---------------------------------------------------------------------------------------------


def test_a_valid_catalog_loads_with_the_game_fields() -> None:
    catalog = load_catalog(FIXTURES / "fixture.json", FixtureCatalog)
    assert catalog.game == "fixture"
    assert catalog.version == 1
    assert len(catalog.cards) == 8
    archer = catalog.card("sylvan_archer")
    assert archer is not None
    assert archer.pv == 20
    assert archer.rarity == "common"
    assert archer.name == LocalizedText(fr="Archer sylvestre", en="Sylvan Archer")
    assert "dragon" in catalog.ids()


def test_an_out_of_range_value_names_file_card_and_field() -> None:
    assert error_of("out_of_range.json") == (
        f'{shown("out_of_range.json")}: card "sylvan_archer" (#3): field "pv": '
        "Input should be greater than or equal to 1"
    )


def test_an_unknown_field_is_rejected() -> None:
    assert error_of("unknown_field.json") == (
        f'{shown("unknown_field.json")}: card "sylvan_archer" (#1): field "speed": '
        "Extra inputs are not permitted"
    )


def test_a_duplicate_id_names_both_cards() -> None:
    assert error_of("duplicate_id.json") == (
        f'{shown("duplicate_id.json")}: card "sylvan_archer" (#2): field "id": '
        'Duplicate id "sylvan_archer", already used by card #0'
    )


def test_a_card_without_id_is_named_by_index_and_every_problem_is_listed() -> None:
    lines = error_of("missing_id.json").splitlines()
    prefix = f"{shown('missing_id.json')}: card #1: "
    assert lines == [
        prefix + 'field "id": Field required',
        prefix + 'field "name.en": String should have at least 1 character',
        prefix + "field \"rarity\": Input should be 'common' or 'rare'",
    ]


def test_invalid_json_gives_line_and_column() -> None:
    assert error_of("bad_json.json") == (
        f"{shown('bad_json.json')}: invalid JSON at line 5, column 97: Expecting ',' delimiter"
    )


def test_a_key_given_twice_is_rejected() -> None:
    assert error_of("duplicate_key.json") == (
        f'{shown("duplicate_key.json")}: invalid JSON: key "pv" appears twice in one object'
    )


def test_a_missing_file_is_named() -> None:
    assert error_of("nope.json") == f"{shown('nope.json')}: file not found"


def test_top_level_fields_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "fixture.json"
    path.write_text('{"game": "fixture", "version": 0, "cards": []}', encoding="utf-8")
    with pytest.raises(
        CatalogError, match=r'fixture\.json: field "version": Input should be greater than or equal to 1'
    ):
        load_catalog(path, FixtureCatalog)


def test_load_all_loads_each_game_and_reports_every_broken_file(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "fixture.json", tmp_path / "fixture.json")
    no_catalog = games.GameSpec(key="nocat", name_key="game.nocat", command_group="nocat")
    loaded = load_all(tmp_path, [FIXTURE_SPEC, no_catalog])
    assert list(loaded) == ["fixture"]
    assert len(loaded["fixture"].cards) == 8

    other = games.GameSpec(
        key="other", name_key="game.other", command_group="other", catalog_model=FixtureCatalog
    )
    shutil.copy(FIXTURES / "out_of_range.json", tmp_path / "fixture.json")
    with pytest.raises(CatalogError) as info:
        load_all(tmp_path, [FIXTURE_SPEC, other])
    lines = str(info.value).splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(
        'fixture.json: card "sylvan_archer" (#3): field "pv": Input should be greater than or equal to 1'
    )
    assert lines[1].endswith("other.json: file not found")


def test_load_all_checks_the_game_named_in_the_file(tmp_path: Path) -> None:
    class AnyGameCatalog(CatalogBase[FixtureCard]):
        pass

    spec = games.GameSpec(
        key="pillz", name_key="game.pillz", command_group="pillz", catalog_model=AnyGameCatalog
    )
    shutil.copy(FIXTURES / "fixture.json", tmp_path / "pillz.json")
    with pytest.raises(CatalogError, match=r'pillz\.json: field "game": expected "pillz", found "fixture"'):
        load_all(tmp_path, [spec])


def test_every_catalog_in_data_loads_with_its_game_model() -> None:
    """Loops rather than parametrizes, so it runs (and passes) before the first game has a catalog."""
    specs = [spec for spec in every_game().all_games() if spec.catalog_model is not None]
    loaded = load_all(DATA_DIR, specs)  # raises CatalogError naming every broken file
    assert sorted(loaded) == sorted(spec.key for spec in specs)
    for spec in specs:
        model = spec.catalog_model
        assert model is not None
        assert isinstance(loaded[spec.key], model)
        assert loaded[spec.key].cards, f"{spec.key}: catalog has no cards"
    expected = {f"{spec.key}.json" for spec in specs}
    # A game built engine first has no GameSpec yet: its engine tests' checks module declares its model.
    for game, checks in all_checks().items():
        if f"{game}.json" not in expected:
            assert load_catalog(DATA_DIR / f"{game}.json", checks.catalog_model).cards, f"{game}: no cards"
            expected.add(f"{game}.json")
    strays = sorted(p.name for p in DATA_DIR.glob("*.json") if p.name not in expected)
    assert not strays, f"catalog files without a game declaring a catalog_model: {strays}"


# --- /card search ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def index() -> CardIndex:
    other = FixtureCatalog.model_validate(
        {
            "game": "fixture",
            "version": 1,
            "cards": [
                {
                    "id": "dragon",
                    "name": {"fr": "Dragon", "en": "Dragon"},
                    "pv": 5,
                    "attack": 5,
                    "rarity": "rare",
                },
                {
                    "id": "wyrm",
                    "name": {"fr": "Vouivre", "en": "Wyrm"},
                    "pv": 5,
                    "attack": 5,
                    "rarity": "rare",
                },
            ],
        }
    )
    return CardIndex({"fixture": load_catalog(FIXTURES / "fixture.json", FixtureCatalog), "beta": other})


def names(refs: list[CardRef], locale: str) -> list[str]:
    return [ref.name_in(locale) for ref in refs]


def test_prefix_matches_come_first_then_word_starts_then_substrings(index: CardIndex) -> None:
    assert names(index.search("arch", "fr"), "fr") == ["Archer sylvestre", "Grand archer", "Patriarche"]
    assert names(index.search("arch", "en"), "en") == ["Great Archer", "Sylvan Archer", "Patriarch"]


def test_search_uses_the_readers_language(index: CardIndex) -> None:
    assert names(index.search("sylv", "fr"), "fr") == ["Archer sylvestre"]
    assert names(index.search("sylv", "en-US"), "en") == ["Sylvan Archer"]
    assert index.search("vouivre", "en") == []
    assert names(index.search("wyrm", "en-GB"), "en") == ["Wyrm"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ecume", "Chevalier d'écume"),
        ("ÉCUME", "Chevalier d'écume"),
        ("elan", "Élan furieux"),
        ("oeil de lynx", "Œil-de-Lynx"),
        ("oeil-de", "Œil-de-Lynx"),
        ("l'epee", "L’Épée du roi"),
        ("  epee   du ", "L’Épée du roi"),
    ],
)
def test_search_ignores_accents_case_and_punctuation(index: CardIndex, query: str, expected: str) -> None:
    assert names(index.search(query, "fr"), "fr") == [expected]


def test_same_name_in_two_games_gives_two_refs(index: CardIndex) -> None:
    refs = index.search("dragon", "fr")
    assert [(r.game, r.card_id) for r in refs] == [("beta", "dragon"), ("fixture", "dragon")]
    assert [r.key for r in refs] == ["beta:dragon", "fixture:dragon"]


def test_empty_query_lists_alphabetically_within_the_limit(index: CardIndex) -> None:
    assert len(index) == 10
    listed = names(index.search("", "fr", limit=4), "fr")
    assert listed == ["Archer sylvestre", "Chevalier d'écume", "Dragon", "Dragon"]
    assert len(index.search("", "fr")) == 10
    assert index.search("a", "fr", limit=0) == []


def test_get_returns_the_game_model_and_resolve_understands_keys_and_names(index: CardIndex) -> None:
    card = index.get("fixture", "sylvan_archer")
    assert isinstance(card, FixtureCard)
    assert card.pv == 20
    assert index.get("fixture", "nope") is None
    assert index.get("nope", "dragon") is None
    assert (ref := index.resolve("fixture:foam_knight", "fr")) is not None
    assert ref.name_in("en") == "Foam Knight"
    assert (ref := index.resolve("chevalier d’ecume", "fr")) is not None
    assert ref.card_id == "foam_knight"
    assert (ref := index.resolve("Foam knight", "fr")) is not None
    assert ref.card_id == "foam_knight"
    assert index.resolve("foam", "en") is None
    assert index.resolve("", "fr") is None


def test_fold() -> None:
    assert fold("  L’Œil-de-Lynx Ærien  ") == "l oeil de lynx aerien"
    assert fold("Straße") == "strasse"
