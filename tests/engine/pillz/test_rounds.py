"""One round at a time: each character once, pillz 0..left, attack = power x pillz, the odds of winning
(the rules' example 10 vs 5 wins 10 times in 15), damage, KO, points, draw, illegal actions."""

from __future__ import annotations

import json
import math

import pytest

from engine.errors import IllegalAction, InvalidAction
from engine.pillz.rules import draw_winner
from engine.pillz.state import Play
from engine.rng import RngState
from tests.engine.pillz.helpers import ENGINE, fighter, plain_hand, round_, state


def test_legal_actions_are_every_unused_character_with_0_to_all_pillz() -> None:
    s = state()
    legal = ENGINE.legal_actions(s, 0)
    assert legal == [Play(card=f"a{i}", pillz=n) for i in range(4) for n in range(13)]
    assert Play(card="a0", pillz=0) in legal  # 0 pillz is allowed


def test_each_character_fights_once() -> None:
    s = round_(state(), ("a0", 3), ("b2", 3))
    assert [f.used for f in s.hands[0]] == [True, False, False, False]
    assert [f.used for f in s.hands[1]] == [False, False, True, False]
    s, _ = ENGINE.apply(s, 1, Play(card="b1", pillz=0))  # seat 1 leads round 2
    assert {a.card for a in ENGINE.legal_actions(s, 0)} == {"a1", "a2", "a3"}
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 0, Play(card="a0", pillz=0))


def test_pillz_spent_are_gone_and_attack_is_power_times_pillz() -> None:
    h0 = (fighter("a0", power=5), *plain_hand("x")[1:])
    h1 = (fighter("b0", power=3), *plain_hand("y")[1:])
    s = round_(state(h0, h1), ("a0", 3), ("b0", 4))
    record = s.history[0]
    assert record.pillz == (3, 4)
    assert record.attacks == (15, 12)  # the rulebook's example: P 5 x 3 pillz = 15
    assert s.pillz == (9, 8) == record.pillz_left


def test_the_winner_deals_its_damage_to_the_loser() -> None:
    h0 = (fighter("a0", power=5, damage=4), *plain_hand("x")[1:])
    s = round_(state(h0), ("a0", 2), ("b0", 0))  # 10 vs 0: seat 0 wins for sure
    assert s.history[0].winner == 0
    assert s.history[0].damage == 4
    assert s.life == (12, 8)


def _share_won_by_seat_0(attack_bets: tuple[int, int], n: int) -> float:
    """Seat 0 leads with 5 power; seat 1 answers with 5 power; bets give the attacks."""
    wins = 0
    for seed in range(n):
        s = round_(state(seed=seed), ("a0", attack_bets[0]), ("b0", attack_bets[1]))
        wins += s.history[0].winner == 0
    return wins / n


@pytest.mark.slow
def test_the_rules_example_attack_10_against_5_wins_10_times_in_15() -> None:
    n = 20_000
    share = _share_won_by_seat_0((2, 1), n)  # 5 x 2 = 10 against 5 x 1 = 5
    p = 10 / 15
    assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_the_winner_draw_is_exact_integer_odds() -> None:
    """randrange(total) < attack_0: over every value of the draw, seat 0 wins exactly attack_0 of them."""

    class Counting:
        def __init__(self) -> None:
            self.values = iter(range(15))

        def randrange(self, n: int) -> int:
            assert n == 15
            return next(self.values)

    counting = Counting()
    winners = [draw_winner(counting, 10, 5) for _ in range(15)]  # type: ignore[arg-type]
    assert winners.count(0) == 10
    assert winners.count(1) == 5


@pytest.mark.slow
def test_zero_against_zero_is_fifty_fifty() -> None:
    n = 10_000
    share = _share_won_by_seat_0((0, 0), n)
    assert abs(share - 0.5) < 4 * math.sqrt(0.25 / n)


def test_an_attack_against_zero_always_wins() -> None:
    assert all(draw_winner(RngState(seed=s).advance()[0], 1, 0) == 0 for s in range(200))


def test_a_ko_ends_the_duel_at_once() -> None:
    h0 = (fighter("a0", damage=7), fighter("a1", damage=7), *plain_hand("x")[2:])
    s = round_(state(h0, life=(12, 7)), ("a0", 1), ("b0", 0))
    assert s.life == (12, 0)
    assert s.finished
    assert s.winner == 0
    assert s.round == 1
    outcome = ENGINE.outcome(s)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.reason == "pillz.outcome.ko"
    assert outcome.scores == (12, 0)
    assert ENGINE.current_players(s) == []
    assert ENGINE.legal_actions(s, 1) == []


def _four_rounds(s, wins: list[int]):
    """Play four rounds where `wins[i]` is the seat that bets 1 pillz against 0 (a sure win)."""
    for i, winner in enumerate(wins):
        leader = ENGINE.lead(s)
        bets = [0, 0]
        bets[winner] = 1
        s = round_(
            s, (s.hands[leader][i].card_id, bets[leader]), (s.hands[1 - leader][i].card_id, bets[1 - leader])
        )
    return s


def test_after_four_rounds_the_higher_pv_wins_on_points() -> None:
    s = _four_rounds(state(), [0, 0, 1, 0])  # damage 3 each: 12-3 = 9 against 12-9 = 3
    assert s.finished
    assert s.life == (9, 3)
    outcome = ENGINE.outcome(s)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.reason == "pillz.outcome.points"
    assert outcome.scores == (9, 3)


def test_equal_pv_after_four_rounds_is_a_draw() -> None:
    s = _four_rounds(state(), [0, 1, 1, 0])
    outcome = ENGINE.outcome(s)
    assert s.life == (6, 6)
    assert outcome is not None
    assert outcome.draw
    assert outcome.winners == ()
    assert outcome.reason == "pillz.outcome.draw"


def test_the_game_goes_on_before_the_end() -> None:
    s = round_(state(), ("a0", 1), ("b0", 0))
    assert ENGINE.outcome(s) is None
    assert s.round == 2


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (1, Play(card="b0", pillz=0), "not_your_turn"),
        (0, Play(card="zz", pillz=0), "card"),
        (0, Play(card="a0", pillz=13), "pillz"),
        (0, Play(card="a0", pillz=-1), "pillz"),
    ],
)
def test_illegal_actions_are_refused(seat: int, action: Play, reason: str) -> None:
    s = state()
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(s, seat, action)
    assert error.value.params["reason"] == reason


def test_a_used_character_is_refused() -> None:
    s = round_(state(first=1), ("b0", 0), ("a0", 0))
    s, _ = ENGINE.apply(s, 0, Play(card="a1", pillz=0))
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 1, Play(card="b0", pillz=0))


def test_the_answer_may_not_spend_more_than_is_left() -> None:
    s = state(pillz=(12, 2))
    s, _ = ENGINE.apply(s, 0, Play(card="a0", pillz=0))
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 1, Play(card="b0", pillz=3))


@pytest.mark.parametrize(
    "raw",
    [
        None,
        {"kind": "play", "card": "a0"},
        {"kind": "play", "card": "a0", "pillz": "3"},
        {"kind": "play", "card": "a0", "pillz": True},
        {"kind": "play", "card": "a0", "pillz": -1},
        {"kind": "play", "card": "", "pillz": 1},
        {"kind": "pass", "card": "a0", "pillz": 1},
        {"kind": "play", "card": "a0", "pillz": 1, "extra": 0},
        ["play", "a0", 1],
    ],
)
def test_malformed_actions_raise_invalid_action(raw: object) -> None:
    with pytest.raises(InvalidAction):
        ENGINE.action_from_json(raw)


def test_actions_and_states_round_trip_through_json() -> None:
    play = Play(card="a0", pillz=4)
    assert ENGINE.action_from_json(json.loads(json.dumps(ENGINE.action_to_json(play)))) == play
    s = round_(state(), ("a0", 2), ("b1", 5))
    s, _ = ENGINE.apply(s, 1, Play(card="b2", pillz=1))
    assert ENGINE.from_json(ENGINE.to_json(s)) == s
