"""The deck carried by `PlayerSetup.extra`: its shape, and the deck rules that matter to a battle."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.errors import DomainError
from engine.hoss import ENGINE, MAX_RANK, HossCatalog, opponent_setup
from engine.hoss.deck import HossSetupError, KnownCopies, parse_setup
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.hoss.helpers import DECK_A, DECK_B, deck_catalog, player

CATALOG = deck_catalog()


def copy_of(card: str, rarity: str = "or", stars: int = 3, holo: bool = False) -> dict[str, Any]:
    return {"card": card, "rarity": rarity, "stars": stars, "holo": holo}


def extra() -> dict[str, Any]:
    return copy.deepcopy(dict(player(0, DECK_A).extra))


def rejected(data: Any, deck: tuple[str, ...] = ()) -> str:
    with pytest.raises(HossSetupError) as caught:
        parse_setup(PlayerSetup(seat=0, player_id=1, deck=deck, extra=data), CATALOG)
    return caught.value.key


def test_a_valid_deck_is_read() -> None:
    deck = parse_setup(player(0, DECK_A), CATALOG)
    assert [line.line for line in deck.lines] == list(DECK_A)
    oc = deck.lines[1]
    assert (oc.r1.card, [c.card for c in oc.r2], [c.card for c in oc.r3]) == (
        "oc_1",
        ["oc_2a", "oc_2b"],
        ["oc_3a", "oc_3b"],
    )
    assert [b.effect for b in deck.buffs] == ["soins", "pv"]
    assert issubclass(HossSetupError, DomainError)


def test_the_best_copy_of_each_card_is_used() -> None:
    data = extra()
    data["lines"][0]["copies"] += [
        copy_of("hg_1", "divin", 1),
        copy_of("hg_1", "argent", 5),
        copy_of("hg_1", "basique", 5, True),
    ]
    line = parse_setup(PlayerSetup(0, 1, extra=data), CATALOG).lines[0]
    # Or 3★ = 19.5 %, Divin 1★ = 14 %, Argent 5★ = 20 %, Basique 5★ holo = 30 %.
    assert (line.r1.rarity, line.r1.stars, line.r1.holo) == ("basique", 5, True)


def test_a_missing_rank_stops_the_line() -> None:
    data = extra()
    data["lines"][0]["copies"] = [copy_of("hg_1"), copy_of("hg_3a")]  # no Rang 2
    line = parse_setup(PlayerSetup(0, 1, extra=data), CATALOG).lines[0]
    assert (line.r2, line.r3) == ((), ())


def test_exactly_six_lines() -> None:
    data = extra()
    data["lines"].pop()
    assert rejected(data) == "hoss.error.setup.line_count"
    data = extra()
    data["lines"].append({"copies": [copy_of("ha_1")]})
    assert rejected(data) == "hoss.error.setup.line_count"


def test_one_line_per_creature() -> None:
    data = extra()
    data["lines"][5] = {"copies": [copy_of("hg_1")]}
    assert rejected(data) == "hoss.error.setup.duplicate_line"


def test_at_most_two_defenders() -> None:
    assert parse_setup(player(0, ("hg", "oc", "sa", "sm", "hd", "sd")), CATALOG)
    data = dict(player(0, ("hg", "oc", "sa", "xd", "hd", "sd")).extra)
    assert rejected(data) == "hoss.error.setup.too_many_defenders"


def test_exactly_two_different_buffs() -> None:
    data = extra()
    data["buffs"].pop()
    assert rejected(data) == "hoss.error.setup.buff_count"
    data = extra()
    data["buffs"][1] = copy_of("buff_soins")
    assert rejected(data) == "hoss.error.setup.duplicate_buff"


def test_cards_must_exist_and_be_of_the_right_kind() -> None:
    data = extra()
    data["lines"][0]["copies"][0]["card"] = "nope_1"
    assert rejected(data) == "hoss.error.setup.unknown_card"
    data = extra()
    data["lines"][0]["copies"][0]["card"] = "buff_pv"
    assert rejected(data) == "hoss.error.setup.unknown_card"
    data = extra()
    data["buffs"][0]["card"] = "hg_1"
    assert rejected(data) == "hoss.error.setup.unknown_card"


def test_a_line_holds_one_family_and_its_rang_1() -> None:
    data = extra()
    data["lines"][0]["copies"].append(copy_of("ha_1"))
    assert rejected(data) == "hoss.error.setup.mixed_line"
    data = extra()
    data["lines"][0]["copies"] = [copy_of("hg_2a")]
    assert rejected(data) == "hoss.error.setup.missing_rank1"


@pytest.mark.parametrize(
    "bad",
    [
        {"card": "hg_1", "rarity": "or", "stars": 6, "holo": False},
        {"card": "hg_1", "rarity": "or", "stars": -1, "holo": False},
        {"card": "hg_1", "rarity": "or", "stars": True, "holo": False},
        {"card": "hg_1", "rarity": "gold", "stars": 1, "holo": False},
        {"card": "hg_1", "rarity": "or", "stars": 1, "holo": 1},
        {"card": 3, "rarity": "or", "stars": 1, "holo": False},
        {"card": "hg_1", "rarity": "or", "stars": 1},
        {"card": "hg_1", "rarity": "or", "stars": 1, "holo": False, "level": 2},
        "hg_1",
    ],
)
def test_each_copy_is_checked(bad: Any) -> None:
    data = extra()
    data["lines"][0]["copies"][0] = bad
    assert rejected(data) == "hoss.error.setup.copy"


@pytest.mark.parametrize("bad", [None, {}, {"lines": []}, {"lines": [], "buffs": [], "more": 1}, [1, 2]])
def test_the_shape_is_checked(bad: Any) -> None:
    assert rejected(bad) in ("hoss.error.setup.shape", "hoss.error.setup.line_count")


def test_a_line_is_an_object_with_copies() -> None:
    data = extra()
    data["lines"][0] = [copy_of("hg_1")]
    assert rejected(data) == "hoss.error.setup.line"
    data = extra()
    data["lines"][0] = {"copies": []}
    assert rejected(data) == "hoss.error.setup.line"


def test_the_deck_tuple_must_agree_with_extra() -> None:
    setup = player(0, DECK_A)
    ids = tuple(c["card"] for line in setup.extra["lines"] for c in line["copies"]) + tuple(
        b["card"] for b in setup.extra["buffs"]
    )
    assert parse_setup(PlayerSetup(0, 1, deck=tuple(reversed(ids)), extra=setup.extra), CATALOG)
    assert rejected(setup.extra, deck=ids[:-1]) == "hoss.error.setup.deck_mismatch"


def test_the_table_is_checked() -> None:
    players = (player(0, DECK_A), player(1, DECK_B))
    with pytest.raises(HossSetupError, match="catalog"):
        ENGINE.new_game(players, 1, {})
    with pytest.raises(HossSetupError, match="seats"):
        ENGINE.new_game(players[:1], 1, {CATALOG_OPTION: CATALOG})
    with pytest.raises(HossSetupError, match="seats"):
        ENGINE.new_game((players[0], PlayerSetup(0, 5, extra=players[1].extra)), 1, {CATALOG_OPTION: CATALOG})
    with pytest.raises(HossSetupError, match="option"):
        ENGINE.new_game(players, 1, {CATALOG_OPTION: CATALOG, "move_pauses": "yes"})
    assert ENGINE.new_game(players, 1, {CATALOG_OPTION: CATALOG}).round == 0


def test_lines_and_buffs_known_from_an_earlier_deck_give_the_same_deck() -> None:
    """`KnownCopies`: a deck read with the lines and buffs of earlier decks is the deck read alone, at
    every rank the AI plays; the deck's own checks still run, and a copy only equal once written (1.0
    stars, True for 1) is checked anew."""
    hoss = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    known = KnownCopies(10_000)
    for rank in range(1, MAX_RANK + 1):
        for seed in range(60):
            setup = opponent_setup(hoss, rank, random.Random(seed * 10 + rank))
            alone = parse_setup(setup, hoss)
            assert parse_setup(setup, hoss, known) == alone
            assert parse_setup(setup, hoss, known).model_dump_json() == alone.model_dump_json()
    assert known.lines
    assert known.buffs

    mine = KnownCopies(10)
    read = parse_setup(player(0, DECK_A), CATALOG, mine)
    assert read == parse_setup(player(0, DECK_A), CATALOG)
    data = extra()
    data["lines"][5] = copy.deepcopy(data["lines"][0])  # a known line, twice in the deck
    with pytest.raises(HossSetupError) as twice:
        parse_setup(PlayerSetup(seat=0, player_id=1, deck=(), extra=data), CATALOG, mine)
    assert twice.value.key == "hoss.error.setup.duplicate_line"
    for bad in (1.0, True):
        data = extra()
        data["lines"][0]["copies"][0]["stars"] = bad
        with pytest.raises(HossSetupError) as stars:
            parse_setup(PlayerSetup(seat=0, player_id=1, deck=(), extra=data), CATALOG, mine)
        assert stars.value.key == "hoss.error.setup.copy"


def test_known_copies_are_dropped_beyond_their_limit() -> None:
    known = KnownCopies(2)
    parse_setup(player(0, DECK_A), CATALOG, known)
    assert len(known.lines) <= 2
    assert len(known.buffs) <= 2
