"""Setting up a duel: the draw of four characters, 12 PV and 12 pillz, leaders drawn, who begins, who leads."""

from __future__ import annotations

import math
import random

import pytest

from engine.pillz.catalog import PillzCard, PillzCatalog
from engine.pillz.engine import PillzSetupError
from engine.pillz.sample import sample_catalog
from engine.pillz.state import HAND_SIZE, START_LIFE, START_PILLZ
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.pillz.helpers import ENGINE, card, catalog, fighter, new_game, round_, state

# Two decks of six plain 2★ characters; `lead_*` variants add leaders.
PLAIN = tuple(card(f"p{i}", stars=2) for i in range(12))
DECK0 = tuple(f"p{i}" for i in range(6))
DECK1 = tuple(f"p{i}" for i in range(6, 12))


def test_each_seat_draws_four_distinct_characters_of_its_deck() -> None:
    cat = catalog(*PLAIN)
    drawn_sets = set()
    for seed in range(50):
        s = new_game(cat, DECK0, DECK1, seed)
        for seat, deck in ((0, DECK0), (1, DECK1)):
            ids = [f.card_id for f in s.hands[seat]]
            assert len(ids) == HAND_SIZE == len(set(ids))
            assert set(ids) <= set(deck)
        drawn_sets.add(tuple(sorted(f.card_id for f in s.hands[0])))
    assert len(drawn_sets) > 5  # the draw is random, from the seed
    assert new_game(cat, DECK0, DECK1, 7) == new_game(cat, DECK0, DECK1, 7)


def test_a_duel_starts_with_12_pv_and_12_pillz() -> None:
    s = new_game(catalog(*PLAIN), DECK0, DECK1)
    assert s.life == s.max_life == (START_LIFE, START_LIFE) == (12, 12)
    assert s.pillz == (START_PILLZ, START_PILLZ) == (12, 12)
    assert s.round == 1
    assert not s.finished
    assert s.history == ()


def test_the_card_stats_are_copied_into_the_state() -> None:
    s = new_game(catalog(*PLAIN), DECK0, DECK1)
    f = s.hands[0][0]
    assert (f.power, f.damage, f.stars, f.clan, f.used) == (4, 3, 2, "a", False)


@pytest.mark.parametrize(
    ("deck", "reason"),
    [
        (("p0", "p1", "p2"), "deck_size"),
        (("p0", "p0", "p1", "p2"), "deck_copies"),
        (("p0", "p1", "p2", "zz"), "unknown_card"),
    ],
)
def test_an_invalid_deck_is_refused(deck: tuple[str, ...], reason: str) -> None:
    with pytest.raises(PillzSetupError) as error:
        new_game(catalog(*PLAIN), deck, DECK1)
    assert error.value.params["reason"] == reason


def test_a_catalog_is_required() -> None:
    """No silent fallback to the sample catalog: a duel plays the cards its caller loaded."""
    with pytest.raises(PillzSetupError, match="catalog"):
        ENGINE.sample_setup(random.Random(3), None)
    setup = ENGINE.sample_setup(random.Random(3), sample_catalog())
    with pytest.raises(PillzSetupError, match="catalog"):
        ENGINE.new_game(setup.players, 3, {})
    s = ENGINE.new_game(setup.players, 3, setup.options)
    assert all(sample_catalog().card(f.card_id) is not None for hand in s.hands for f in hand)


# --- leaders: they act only when drawn -------------------------------------------------------------------


def four(prefix: str, clan: str = "a", stars: int = 2) -> list[PillzCard]:
    return [card(f"{prefix}{i}", clan=clan, stars=stars) for i in range(4)]


def test_clan_power_leader_boosts_its_drawn_clan_itself_included() -> None:
    leader = card("boss", clan="a", stars=3, power=5, leader=True, ability="clan_power", value=2)
    cards = [leader, card("a1", clan="a"), card("a2", clan="a"), card("b1", clan="b"), *four("o")]
    s = new_game(catalog(*cards), ("boss", "a1", "a2", "b1"), ("o0", "o1", "o2", "o3"))
    power = {f.card_id: f.power for f in s.hands[0]}
    assert power == {"boss": 7, "a1": 6, "a2": 6, "b1": 4}
    assert {f.power for f in s.hands[1]} == {4}


def test_a_leader_left_in_the_deck_does_nothing() -> None:
    """A Trésor de guerre refunds its owner's lost rounds only when the leader is among the four drawn."""
    leader = card("boss", clan="a", stars=3, power=5, leader=True, ability="war_chest", value=2)
    cards = [leader, *four("a"), *four("o")]
    deck = ("boss", "a0", "a1", "a2", "a3")
    seen = set()
    for seed in range(40):
        s = new_game(catalog(*cards), deck, ("o0", "o1", "o2", "o3"), seed)
        drawn = any(f.card_id == "boss" for f in s.hands[0])
        seen.add(drawn)
        mine = next(f.card_id for f in s.hands[0] if f.card_id != "boss")
        lead, answer = ((mine, 0), ("o0", 1)) if s.first == 0 else (("o0", 1), (mine, 0))
        s = round_(s, lead, answer)  # seat 0 bets nothing against 1: it loses
        assert s.pillz[0] == (14 if drawn else 12)
    assert seen == {True, False}


def all_leaders() -> list[PillzCard]:
    return [c for c in load_catalog(DATA_DIR / "pillz.json", PillzCatalog).cards if c.leader]


@pytest.mark.parametrize("mine", all_leaders(), ids=lambda c: c.id)
def test_every_duel_starts_at_12_pv_and_12_pillz_whatever_the_leaders(mine: PillzCard) -> None:
    """The rulebook: « Vous débutez avec 12 points de vie et 12 pillz ». Each leader of the shipped catalog
    is drawn (a deck of four always draws them all) against every leader, and against none."""
    cat = load_catalog(DATA_DIR / "pillz.json", PillzCatalog)
    plain = [c.id for c in cat.cards if not c.leader and c.ability is None]
    for theirs in [*all_leaders(), None]:
        deck0 = (mine.id, *plain[:3])
        deck1 = (*plain[3:6], plain[6] if theirs is None else theirs.id)
        for seed in range(3):
            s = new_game(cat, deck0, deck1, seed)
            assert {f.card_id for f in s.hands[0]} == set(deck0)
            assert s.life == s.max_life == (12, 12)
            assert s.pillz == (12, 12)
            assert all(e.data["life"] == 12 and e.data["pillz"] == 12 for e in ENGINE.start_events(s)[:2])


def test_the_sample_catalog_starts_every_duel_at_12_and_12() -> None:
    for seed in range(60):
        setup = ENGINE.sample_setup(random.Random(seed), sample_catalog())
        s = ENGINE.new_game(setup.players, seed, setup.options)
        assert (s.life, s.max_life, s.pillz) == ((12, 12), (12, 12), (12, 12))


# --- who begins ---------------------------------------------------------------------------------------


def test_the_higher_total_of_stars_begins() -> None:
    strong = [card(f"s{i}", stars=4, power=6, damage=4) for i in range(4)]
    cards = [*strong, *four("o")]
    for seed in range(20):
        s = new_game(catalog(*cards), ("s0", "s1", "s2", "s3"), ("o0", "o1", "o2", "o3"), seed)
        assert s.first == 0
        t = new_game(catalog(*cards), ("o0", "o1", "o2", "o3"), ("s0", "s1", "s2", "s3"), seed)
        assert t.first == 1
    assert ENGINE.view(s, 0).first_reason == "stars"


def _share_first_zero(
    cards: list[PillzCard], deck0: tuple[str, ...], deck1: tuple[str, ...], n: int = 2000
) -> float:
    cat = catalog(*cards)
    return sum(new_game(cat, deck0, deck1, seed).first == 0 for seed in range(n)) / n


def test_equal_stars_leave_the_first_player_to_chance() -> None:
    share = _share_first_zero([*four("a"), *four("o")], ("a0", "a1", "a2", "a3"), ("o0", "o1", "o2", "o3"))
    assert abs(share - 0.5) < 4 * math.sqrt(0.25 / 2000)  # 4 sigma


def test_a_counter_attack_leader_always_plays_second() -> None:
    ashigaru = card("taisho", stars=4, power=6, damage=4, leader=True, ability="counter_attack")
    strong = [card(f"s{i}", stars=4, power=6, damage=4) for i in range(3)]
    weak = four("o", stars=1)
    cards = [ashigaru, *strong, *[card(c.id, stars=1, power=3, damage=2) for c in weak]]
    for seed in range(30):
        # More stars would make seat 0 begin; Contre-attaque makes it play second.
        s = new_game(catalog(*cards), ("taisho", "s0", "s1", "s2"), ("o0", "o1", "o2", "o3"), seed)
        assert s.first == 1
        t = new_game(catalog(*cards), ("o0", "o1", "o2", "o3"), ("taisho", "s0", "s1", "s2"), seed)
        assert t.first == 0
    assert ENGINE.view(s, 0).first_reason == "counter_attack"
    events = ENGINE.start_events(s)
    assert events[-1].kind == "first_player"
    assert events[-1].data["reason"] == "counter_attack"


def test_two_counter_attack_leaders_leave_it_to_chance() -> None:
    a = card("taisho-a", stars=4, power=6, damage=4, leader=True, ability="counter_attack")
    b = card("taisho-b", clan="b", stars=3, power=5, damage=3, leader=True, ability="counter_attack")
    cards = [a, b, *four("a"), *four("o")]
    share = _share_first_zero(cards, ("taisho-a", "a0", "a1", "a2"), ("taisho-b", "o0", "o1", "o2"))
    assert abs(share - 0.5) < 4 * math.sqrt(0.25 / 2000)
    s = new_game(catalog(*cards), ("taisho-a", "a0", "a1", "a2"), ("taisho-b", "o0", "o1", "o2"))
    assert ENGINE.view(s, 0).first_reason == "random"


def test_start_events_show_both_line_ups_publicly() -> None:
    s = new_game(catalog(*PLAIN), DECK0, DECK1)
    drawn = [e for e in ENGINE.start_events(s) if e.kind == "drawn"]
    assert [e.data["seat"] for e in drawn] == [0, 1]
    assert all(e.visible_to is None for e in ENGINE.start_events(s))
    assert [c["card"] for c in drawn[1].data["cards"]] == [f.card_id for f in s.hands[1]]


# --- who leads each round ------------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_the_first_player_leads_rounds_1_and_3_the_other_2_and_4(first: int) -> None:
    s = state(first=first)
    leaders = []
    for i in range(4):
        leaders.append(ENGINE.current_players(s)[0])
        s = round_(s, (s.hands[leaders[-1]][i].card_id, 0), (s.hands[1 - leaders[-1]][i].card_id, 0))
        assert s.history[-1].leader == leaders[-1]
    assert leaders == [first, 1 - first, first, 1 - first]
    assert s.finished


def test_the_answerer_acts_once_the_leader_has_played() -> None:
    s = state(h0=(fighter("x0"), fighter("x1"), fighter("x2"), fighter("x3")))
    assert ENGINE.current_players(s) == [0]
    assert ENGINE.legal_actions(s, 1) == []
    s, _ = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0])
    assert ENGINE.current_players(s) == [1]
    assert ENGINE.legal_actions(s, 0) == []
