"""Chocobataille rules, one test per clause of the rulebook (IV.1-IV.4, V.1) and per documented decision."""

from __future__ import annotations

import json
import random

import pytest

from engine.choco.engine import ChocoEngine, ChocoSetupError
from engine.choco.sample import sample_catalog, sample_deck
from engine.choco.state import (
    Attack,
    Card,
    ChocoAction,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Move,
    Prepare,
    Side,
    Summon,
    Turn,
    TurnProgress,
)
from engine.choco.turn import summons_allowed
from engine.errors import IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, SPECTATOR, PlayerSetup
from engine.rng import RngState

ENGINE = ChocoEngine()
SAMPLE = {CATALOG_OPTION: sample_catalog()}
FOE = Side(pioche=(Card(uid="q0", card_id="bronze-1-0", pa=1, pv=3, max_pv=3),))  # keeps the game going


def card(uid: str, pa: int = 2, pv: int = 5) -> Card:
    return Card(uid=uid, card_id="bronze-1-0", pa=pa, pv=pv, max_pv=pv)


def cards(prefix: str, n: int, pa: int = 2, pv: int = 5) -> tuple[Card, ...]:
    return tuple(card(f"{prefix}{i}", pa, pv) for i in range(n))


def state(me: Side, them: Side, allowed: int = 1, turn: int = 3) -> ChocoState:
    """Seat 0 to act, already past its draw."""
    return ChocoState(
        sides=(me, them),
        player_ids=(1, 2),
        rng=RngState(seed=5),
        turn=turn,
        active=0,
        progress=TurnProgress(summons_allowed=allowed),
    )


def players(seed: int = 0) -> list[PlayerSetup]:
    rng = random.Random(seed)
    return [PlayerSetup(seat=s, player_id=s + 1, deck=sample_deck(sample_catalog(), rng)) for s in (0, 1)]


def play(s: ChocoState, *steps: ChocoAction) -> ChocoState:
    for step in steps:
        s, _ = ENGINE.apply(s, 0, step)
    return s


# --- I. deck and setup -----------------------------------------------------------------------------------


def test_a_deck_holds_24_cards_and_at_most_two_copies() -> None:
    good = players()
    ids = sorted(c.id for c in sample_catalog().cards)
    with pytest.raises(ChocoSetupError, match="deck_size"):
        ENGINE.new_game([PlayerSetup(0, 1, good[0].deck[:23]), good[1]], 1, SAMPLE)
    with pytest.raises(ChocoSetupError, match="deck_copies"):
        ENGINE.new_game([PlayerSetup(0, 1, (ids[0],) * 3 + good[0].deck[3:]), good[1]], 1, SAMPLE)
    with pytest.raises(ChocoSetupError, match="unknown_card"):
        ENGINE.new_game([PlayerSetup(0, 1, ("nope", *good[0].deck[1:])), good[1]], 1, SAMPLE)
    with pytest.raises(ChocoSetupError, match="catalog"):  # no sample catalog behind the caller's back
        ENGINE.new_game(good, 1, {})


def test_effect_cards_are_accepted_with_their_effects_copied() -> None:
    from engine.choco.catalog import ChocoCatalog
    from services.infra.catalogs import DATA_DIR, load_catalog

    catalog = load_catalog(DATA_DIR / "choco.json", ChocoCatalog)
    effect = next(c.id for c in catalog.cards if c.type != "normal")
    normal = [c.id for c in catalog.cards if c.type == "normal"][:23]
    deck = (effect, *normal)
    other = PlayerSetup(1, 2, tuple(c.id for c in catalog.cards if c.type == "normal")[:24])
    game = ENGINE.new_game([PlayerSetup(0, 1, deck), other], 1, {"catalog": catalog})
    assert effect in game.effects
    ok = ENGINE.new_game([PlayerSetup(0, 1, (*normal, normal[0])), other], 1, {"catalog": catalog})
    assert ok.sides[0].alive() == 24


def test_the_pioche_is_shuffled_from_the_seed_with_unique_instance_ids() -> None:
    a, b, c = (ENGINE.new_game(players(), seed, SAMPLE) for seed in (1, 1, 2))
    assert a == b
    assert a != c
    uids = [x.uid for side in a.sides for x in side.pioche + side.hand]
    assert len(uids) == len(set(uids)) == 48


# --- IV.1 preparatory turn ------------------------------------------------------------------------------


def test_preparatory_turn_is_simultaneous_and_secret_then_reveals_and_draws_the_first_player() -> None:
    s = ENGINE.new_game(players(), 3, SAMPLE)
    assert [len(side.hand) for side in s.sides] == [5, 5]
    assert ENGINE.current_players(s) == [0, 1]
    choice1 = Prepare(card=s.sides[1].hand[0].uid, line="reserve")
    s, events = ENGINE.apply(s, 1, choice1)
    assert ENGINE.current_players(s) == [0]
    assert choice1.card in ENGINE.hidden_cards(s, 1)
    assert choice1.card not in json.dumps(ENGINE.view(s, 0).to_json())
    assert choice1.card not in json.dumps(events[0].data)
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 1, choice1)
    s, events = ENGINE.apply(s, 0, Prepare(card=s.sides[0].hand[0].uid, line="front"))
    kinds = [e.kind for e in events]
    assert kinds[:4] == ["prepared", "revealed", "revealed", "first_player"]
    first = events[3].data["seat"]
    assert s.turn == 1
    assert ENGINE.current_players(s) == [first]
    assert len(s.sides[first].hand) == 5  # 4 left after the placement, drew 1
    assert s.sides[1].reserve[0].uid == choice1.card
    firsts = set()
    for seed in range(30):
        g = ENGINE.new_game(players(), seed, SAMPLE)
        g, _ = ENGINE.apply(g, 0, ENGINE.legal_actions(g, 0)[0])
        g, _ = ENGINE.apply(g, 1, ENGINE.legal_actions(g, 1)[0])
        firsts.add(g.active)
    assert firsts == {0, 1}


# --- IV.2 1st action: the draw --------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "drawn"), [(0, 5), (3, 2), (5, 1), (7, 1), (8, 0)])
def test_draw_up_to_five_at_least_one_never_above_eight(hand: int, drawn: int) -> None:
    from engine.choco.turn import draw

    side, got = draw(Side(pioche=cards("p", 10), hand=cards("h", hand)))
    assert len(got) == drawn
    assert len(side.hand) == hand + drawn


def test_draw_stops_when_the_pioche_is_empty() -> None:
    from engine.choco.turn import draw

    side, got = draw(Side(pioche=cards("p", 2), hand=()))
    assert len(got) == 2
    assert side.pioche == ()


# --- IV.2 2nd action: the summon ------------------------------------------------------------------------


def test_the_summon_is_mandatory_and_the_new_card_cannot_move() -> None:
    s = state(Side(pioche=(), hand=cards("h", 2), front=cards("f", 1), reserve=cards("r", 1)), FOE)
    with pytest.raises(IllegalAction, match="summon_required"):
        ENGINE.apply(s, 0, EndTurn())
    s = play(s, Summon(card="h0", line="reserve"))
    with pytest.raises(IllegalAction, match="cannot_summon"):
        ENGINE.apply(s, 0, Summon(card="h1", line="front"))
    with pytest.raises(IllegalAction, match="cannot_move"):
        ENGINE.apply(s, 0, Move(card="h0", line="front"))
    s = play(s, Move(card="r0", line="front"), EndTurn())
    assert [c.uid for c in s.sides[0].front] == ["f0", "r0"]


@pytest.mark.parametrize(("mine", "theirs", "allowed"), [(3, 2, 1), (1, 2, 1), (0, 2, 2)])
def test_the_three_cases_of_the_catch_up_summon(mine: int, theirs: int, allowed: int) -> None:
    s = state(Side(pioche=(), front=cards("m", mine)), Side(pioche=(), front=cards("t", theirs)))
    assert summons_allowed(s, 0) == allowed


def test_two_summons_when_behind_by_two() -> None:
    s = state(Side(pioche=(), hand=cards("h", 3)), Side(pioche=(), front=cards("t", 2)), allowed=2)
    s = play(s, Summon(card="h0", line="front"), Summon(card="h1", line="reserve"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 0, Summon(card="h2", line="reserve"))


def test_a_card_placed_on_a_full_line_goes_to_a_free_slot() -> None:
    s = state(Side(pioche=(), hand=cards("h", 1), front=cards("f", 5)), FOE)
    s = play(s, Summon(card="h0", line="front"))
    assert s.sides[0].reserve[-1].uid == "h0"


def test_an_empty_front_must_be_filled_from_the_hand_or_the_reserve() -> None:
    s = state(Side(pioche=(), hand=cards("h", 1)), Side(pioche=(), front=cards("t", 1)))
    assert Summon(card="h0", line="reserve") not in ENGINE.legal_actions(s, 0)
    s = state(Side(pioche=(), hand=cards("h", 1), reserve=cards("r", 1)), FOE)
    s = play(s, Summon(card="h0", line="reserve"))
    with pytest.raises(IllegalAction, match="front_empty"):
        ENGINE.apply(s, 0, EndTurn())
    s = play(s, Move(card="r0", line="front"), EndTurn())
    assert s.active == 1


def test_moves_never_empty_the_front_and_each_card_moves_once() -> None:
    s = state(Side(pioche=(), front=cards("f", 2)), FOE)
    s = play(s, Move(card="f0", line="reserve"))
    with pytest.raises(IllegalAction, match="front_empty"):
        ENGINE.apply(s, 0, Move(card="f1", line="reserve"))
    with pytest.raises(IllegalAction, match="cannot_move"):
        ENGINE.apply(s, 0, Move(card="f0", line="front"))


# --- IV.2 5th action and IV.3: attacks ------------------------------------------------------------------


def test_attackers_add_their_pa_and_a_dead_wizard_goes_to_the_graveyard() -> None:
    me = Side(pioche=(), front=(card("a", 3), card("b", 4)))
    s = state(me, Side(pioche=cards("p", 1), front=(card("t", 1, 6),), reserve=(card("r"),)))
    assert Attack(attacker="a", target="r") not in ENGINE.legal_actions(s, 0)  # reserve is safe
    s = play(s, Attack(attacker="a", target="t"))
    assert s.sides[1].front[0].pv == 3
    with pytest.raises(IllegalAction, match="cannot_attack"):
        ENGINE.apply(s, 0, Attack(attacker="a", target="t"))  # one target per attacker per turn
    s = play(s, Attack(attacker="b", target="t"))
    assert s.sides[1].front == ()
    assert s.sides[1].graveyard[0].uid == "t"


def test_reserve_wizards_cannot_attack() -> None:
    s = state(
        Side(pioche=(), front=cards("f", 1), reserve=cards("r", 1)), Side(pioche=(), front=cards("t", 1))
    )
    with pytest.raises(IllegalAction, match="cannot_attack"):
        ENGINE.apply(s, 0, Attack(attacker="r0", target="t0"))


def test_deck_attack_only_on_an_empty_board_first_free_then_sacrifice() -> None:
    s = state(
        Side(pioche=(), front=cards("f", 3, pa=2)), Side(pioche=cards("p", 2, pv=5), front=cards("t", 1))
    )
    with pytest.raises(IllegalAction, match="no_deck_attack"):
        ENGINE.apply(s, 0, DeckAttack(attacker="f0"))
    s = state(Side(pioche=(), front=cards("f", 3, pa=2)), Side(pioche=cards("p", 2, pv=5)))
    s, events = ENGINE.apply(s, 0, DeckAttack(attacker="f0"))
    assert events[0].data["sacrificed"] is False
    assert sorted(c.pv for c in s.sides[1].pioche) == [3, 5]
    s, events = ENGINE.apply(s, 0, DeckAttack(attacker="f1"))
    assert events[0].data["sacrificed"] is True
    assert [c.uid for c in s.sides[0].graveyard] == ["f1"]
    assert sum(5 - c.pv for c in s.sides[1].pioche) == 4


def test_a_deck_card_brought_to_zero_goes_to_the_graveyard_and_can_end_the_game() -> None:
    s = state(Side(pioche=(), front=(card("f", 9),)), Side(pioche=(card("p", 1, 3),)))
    s, events = ENGINE.apply(s, 0, DeckAttack(attacker="f"))
    assert events[0].data["killed"] is True
    outcome = ENGINE.outcome(s)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert ENGINE.current_players(s) == []


# --- IV.2 6th action, order, whole-turn submission ------------------------------------------------------


def test_discards_go_to_the_graveyard_and_close_the_attacks() -> None:
    s = state(Side(pioche=(), hand=(), front=cards("f", 1)), Side(pioche=(), front=cards("t", 1, pv=9)))
    s = state(s.sides[0].model_copy(update={"hand": cards("h", 2)}), s.sides[1])
    s = play(s, Summon(card="h0", line="front"), Discard(card="h1"))
    assert s.sides[0].graveyard[0].uid == "h1"
    with pytest.raises(IllegalAction, match="phase_order"):
        ENGINE.apply(s, 0, Attack(attacker="f0", target="t0"))


def test_a_whole_turn_is_validated_at_once_and_changes_nothing_when_illegal() -> None:
    s = state(
        Side(pioche=(), hand=cards("h", 2), front=cards("f", 1)),
        Side(pioche=cards("p", 3), front=cards("t", 1, pv=9)),
    )
    bad = Turn(steps=(Summon(card="h0", line="front"), Attack(attacker="f0", target="h1")))
    before = ENGINE.to_json(s)
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 0, bad)
    assert ENGINE.to_json(s) == before
    good = Turn(
        steps=(
            Summon(card="h0", line="front"),
            Attack(attacker="f0", target="t0"),
            Attack(attacker="h0", target="t0"),
        )
    )
    after, _ = ENGINE.apply(s, 0, good)
    assert after.sides[1].front[0].pv == 5
    assert after.active == 1
    assert after.turn == 4
    assert ENGINE.action_from_json(json.loads(json.dumps(ENGINE.action_to_json(good)))) == good


def test_the_turn_limit_ends_in_a_draw() -> None:
    s = state(Side(pioche=(), front=cards("f", 1)), Side(pioche=(), front=cards("t", 1)), turn=7)
    s = s.model_copy(update={"max_turns": 7})
    s = play(s, EndTurn())
    outcome = ENGINE.outcome(s)
    assert outcome is not None
    assert outcome.draw
    assert outcome.reason == "choco.outcome.turn_limit"


def test_views_hide_hands_and_pioches() -> None:
    s = state(
        Side(pioche=cards("p", 2), hand=cards("h", 2), front=cards("f", 1)),
        Side(pioche=(), front=cards("t", 1)),
    )
    mine, theirs, public = (json.dumps(ENGINE.view(s, seat).to_json()) for seat in (0, 1, SPECTATOR))
    assert '"h0"' in mine
    assert '"h0"' not in theirs
    assert '"h0"' not in public
    assert '"p0"' not in mine
    assert ENGINE.hidden_cards(s, 0) == {"h0", "h1"}


@pytest.mark.parametrize("raw", [None, {"kind": "summon"}, {"kind": "turn", "steps": [{"kind": "end"}]}, "x"])
def test_garbage_actions_are_invalid(raw: object) -> None:
    with pytest.raises(InvalidAction):
        ENGINE.action_from_json(raw)


def test_a_whole_turn_stops_when_the_game_ends_mid_turn() -> None:
    s = state(
        Side(pioche=(), hand=cards("h", 2), front=(card("f", 9),)),
        Side(pioche=(), front=(card("t", 1, 3),)),
    )
    turn = Turn(
        steps=(Summon(card="h0", line="reserve"), Attack(attacker="f", target="t"), Discard(card="h1"))
    )
    after, events = ENGINE.apply(s, 0, turn)
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert [e.kind for e in events] == ["summoned", "attacked"]
