"""Rule tests of the toy engine, one per clause of its rules, so the conformance test runs on a known game."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, SPECTATOR, Outcome, PlayerSetup
from engine.rng import RngState
from tests.engine.toy_game import (
    DECK,
    DUEL_BONUS,
    TOY_CATALOG,
    Pass,
    Play,
    ToyEngine,
    ToySetupError,
    ToyState,
)

toy = ToyEngine()
PLAYERS = (PlayerSetup(seat=0, player_id=111), PlayerSetup(seat=1, player_id=222))
OPTIONS = {CATALOG_OPTION: TOY_CATALOG}


def state(**fields: Any) -> ToyState:
    base: dict[str, Any] = {
        "rng": RngState(seed=5),
        "player_ids": (111, 222),
        "turns": 2,
        "deck": ("c7", "c8", "c9"),
        "hands": (("c1", "c2", "c3"), ("c4", "c5", "c6")),
        "played": ((), ()),
        "totals": (0, 0),
    }
    return ToyState(**(base | fields))


def test_deal_gives_three_cards_each_from_one_shuffled_deck() -> None:
    s = toy.new_game(PLAYERS, seed=42, options=OPTIONS)
    assert [len(h) for h in s.hands] == [3, 3]
    assert sorted((*s.hands[0], *s.hands[1], *s.deck), key=lambda c: int(c[1:])) == list(DECK)
    assert s.turns == 6
    assert s.phase == "turns"
    assert toy.new_game(PLAYERS, seed=42, options=OPTIONS) == s
    deals = {toy.new_game(PLAYERS, seed=seed, options=OPTIONS).hands for seed in range(20)}
    assert len(deals) > 15


def test_chance_picks_who_begins() -> None:
    firsts = [toy.new_game(PLAYERS, seed=seed, options=OPTIONS).active for seed in range(200)]
    assert 60 < firsts.count(0) < 140


def test_setup_is_checked() -> None:
    with pytest.raises(ToySetupError):
        toy.new_game(PLAYERS[:1], seed=1, options=OPTIONS)
    with pytest.raises(ToySetupError):
        toy.new_game(PLAYERS, seed=1, options={})
    with pytest.raises(ToySetupError):
        toy.new_game(PLAYERS, seed=1, options={**OPTIONS, "turns": 21})


def test_playing_adds_the_value_and_draws_the_top_card_privately() -> None:
    after, events = toy.apply(state(), 0, Play("c3"))
    assert after.totals == (3, 0)
    assert after.played == (("c3",), ())
    assert after.hands[0] == ("c1", "c2", "c7")
    assert after.deck == ("c8", "c9")
    assert after.active == 1
    assert after.turn == 1
    played, drew = events
    assert played.kind == "played"
    assert played.visible_to is None
    assert played.data["card"] == "c3"
    assert drew.kind == "drew"
    assert drew.visible_to == frozenset({0})
    assert drew.data["card"] == "c7"


def test_passing_draws_at_random_and_advances_the_stream() -> None:
    after, events = toy.apply(state(), 0, Pass())
    assert after.totals == (0, 0)
    assert len(after.hands[0]) == 4
    assert len(after.deck) == 2
    assert after.rng == RngState(seed=5, counter=1)
    assert [e.kind for e in events] == ["passed", "drew"]
    drawn = {toy.apply(state(rng=RngState(seed=s)), 0, Pass())[0].hands[0][-1] for s in range(30)}
    assert drawn == {"c7", "c8", "c9"}


def test_passing_with_a_full_hand_draws_nothing() -> None:
    full = state(hands=(("c1", "c2", "c3", "c10", "c11"), ("c4", "c5", "c6")))
    after, events = toy.apply(full, 0, Pass())
    assert after.hands[0] == full.hands[0]
    assert after.deck == full.deck
    assert [e.kind for e in events] == ["passed"]


def test_only_the_active_player_acts_during_turns() -> None:
    s = state(active=1)
    assert toy.current_players(s) == [1]
    assert toy.legal_actions(s, 0) == []
    assert toy.legal_actions(s, 1) == [Play("c4"), Play("c5"), Play("c6"), Pass()]
    with pytest.raises(IllegalAction) as info:
        toy.apply(s, 0, Play("c1"))
    assert info.value.key == "error.illegal_action"


def test_a_card_not_in_hand_cannot_be_played() -> None:
    with pytest.raises(IllegalAction):
        toy.apply(state(), 0, Play("c4"))


def test_after_the_turns_comes_a_simultaneous_secret_duel() -> None:
    s, _ = toy.apply(state(turns=1), 0, Pass())
    assert s.phase == "duel"
    assert toy.current_players(s) == [0, 1]
    s, events = toy.apply(s, 1, Play("c6"))
    assert toy.current_players(s) == [0]
    assert [(e.kind, dict(e.data)) for e in events] == [("committed", {"seat": 1})]
    assert "c6" not in str(toy.view(s, 0))
    assert "c6" not in str(toy.view(s, SPECTATOR))
    assert toy.view(s, 1).seats[1].choice == "c6"
    assert toy.hidden_cards(s, 1) == {"c4", "c5", "c6"}
    with pytest.raises(IllegalAction):
        toy.apply(s, 1, Play("c5"))  # one choice each


@pytest.mark.parametrize(
    ("choices", "totals", "outcome"),
    [
        (
            (Play("c3"), Play("c6")),
            (3, 6 + DUEL_BONUS),
            Outcome(winners=(1,), scores=(3, 9), reason="toy.outcome.points"),
        ),
        (
            (Play("c2"), Pass()),
            (2 + DUEL_BONUS, 0),
            Outcome(winners=(0,), scores=(5, 0), reason="toy.outcome.points"),
        ),
        ((Pass(), Pass()), (0, 0), Outcome(draw=True, scores=(0, 0), reason="toy.outcome.points")),
    ],
    ids=["higher-card-bonus", "card-beats-pass", "draw"],
)
def test_the_duel_reveals_and_scores(
    choices: tuple[Any, Any], totals: tuple[int, int], outcome: Outcome
) -> None:
    s = state(turns=0, phase="duel")
    s, _ = toy.apply(s, 0, choices[0])
    assert toy.outcome(s) is None
    s, events = toy.apply(s, 1, choices[1])
    assert s.totals == totals
    assert events[-1].kind == "revealed"
    assert events[-1].visible_to is None
    assert toy.current_players(s) == []
    assert toy.outcome(s) == outcome


def test_the_total_decides_not_the_duel() -> None:
    s = state(turns=0, phase="duel", totals=(10, 0))
    s, _ = toy.apply(s, 0, Play("c1"))
    s, _ = toy.apply(s, 1, Play("c6"))
    assert s.totals == (11, 6 + DUEL_BONUS)
    assert toy.outcome(s) == Outcome(winners=(0,), scores=(11, 9), reason="toy.outcome.points")


def test_views_hide_the_other_hand() -> None:
    s = state()
    mine = toy.view(s, 0)
    assert mine.seats[0].hand == ("c1", "c2", "c3")
    assert mine.seats[1].hand is None
    assert mine.seats[1].hand_size == 3
    assert all(seat.hand is None for seat in toy.view(s, SPECTATOR).seats)
    assert mine.to_json()["seats"][0]["hand"] == ["c1", "c2", "c3"]


@pytest.mark.parametrize(
    "raw", [None, "play", {"kind": "play"}, {"kind": "play", "card": "c99"}, {"kind": "pass", "x": 1}, []]
)
def test_malformed_actions_are_invalid(raw: Any) -> None:
    with pytest.raises(InvalidAction):
        toy.action_from_json(raw)


def test_actions_round_trip_as_json() -> None:
    for action in (Play("c12"), Pass()):
        assert toy.action_from_json(toy.action_to_json(action)) == action
