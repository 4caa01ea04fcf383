"""The effect interpreter (docs/choco/cards.md): one test per step kind, trigger, target class, duration."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.choco.catalog import Effect
from engine.choco.engine import ChocoEngine
from engine.choco.sample import sample_catalog
from engine.choco.state import (
    Attack,
    Card,
    ChocoState,
    DeckAttack,
    Move,
    PlayEffect,
    Prepare,
    Side,
    Summon,
    Timed,
    Turn,
    TurnProgress,
)
from engine.errors import IllegalAction
from engine.rng import RngState
from tests.engine.choco.helpers import effect, pure, wiz

ENGINE = ChocoEngine()


PIOCHE = tuple(wiz(f"k{i}") for i in range(12))
FOE_PIOCHE = tuple(wiz(f"q{i}") for i in range(12))


def game(
    mine: Side | None = None,
    theirs: Side | None = None,
    effects: dict[str, Effect] | None = None,
    phase: int = 1,
) -> ChocoState:
    mine = mine or Side(pioche=PIOCHE, front=(wiz("a0"),), reserve=(wiz("a1"),))
    theirs = theirs or Side(
        pioche=FOE_PIOCHE, hand=(wiz("h0"), wiz("h1")), front=(wiz("e0"),), reserve=(wiz("e1"),)
    )
    return ChocoState(
        sides=(mine, theirs),
        player_ids=(1, 2),
        rng=RngState.from_seed(7, "t"),
        turn=1,
        active=0,
        progress=TurnProgress(phase=phase, summoned=("x",)),
        effects=effects or {},
    )


def with_hand(state: ChocoState, *cards: Card) -> ChocoState:
    side = state.sides[0].model_copy(update={"hand": cards})
    return state.model_copy(update={"sides": (side, state.sides[1])})


def play(state: ChocoState, step: Any, seat: int = 0) -> ChocoState:
    return ENGINE.apply(state, seat, step)[0]


def board(state: ChocoState, seat: int) -> dict[str, Card]:
    return {c.uid: c for c in state.sides[seat].board()}


def pure_game(*steps: dict[str, Any], **kw: Any) -> ChocoState:
    return with_hand(game(effects={"p": effect("from_hand", *steps, **kw)}), pure("p0"))


def end_turns(state: ChocoState, n: int) -> ChocoState:
    for _ in range(n):
        state = ENGINE.end_turn(state)[0]
    return state


# --- step kinds --------------------------------------------------------------------------------------


def test_damage_reaches_the_reserve_and_protected_wizards_and_kills_at_zero() -> None:
    state = pure_game({"kind": "damage", "target": "enemy", "amount": 3})
    state = state.model_copy(update={"timed": (protected_by_foe("e1"),)})
    after = play(state, PlayEffect(card="p0", targets=("e1",)))
    assert board(after, 1)["e1"].pv == 2
    assert after.sides[0].graveyard[-1].uid == "p0"  # used, then to the graveyard
    after = play(
        pure_game({"kind": "damage", "target": "enemy", "amount": 5}), PlayEffect(card="p0", targets=("e0",))
    )
    assert "e0" not in board(after, 1)
    assert after.sides[1].graveyard[-1].uid == "e0"


def protected_by_foe(uid: str) -> Any:

    return Timed(owner=1, uid=uid, kind="protect", left=2, turn=0)


def test_heal_never_goes_above_the_maximum() -> None:
    state = pure_game({"kind": "heal", "target": "all_allies", "amount": 4})
    hurt = state.sides[0].model_copy(update={"front": (wiz("a0").model_copy(update={"pv": 2}),)})
    after = play(state.model_copy(update={"sides": (hurt, state.sides[1])}), PlayEffect(card="p0"))
    assert board(after, 0)["a0"].pv == 5
    assert board(after, 0)["a1"].pv == 5


def test_modify_for_turns_expires_at_the_owners_nth_end_of_turn_after() -> None:
    state = pure_game({"kind": "modify", "target": "ally", "pa": 2, "pv": 3, "turns": 1})
    after = play(state, PlayEffect(card="p0", targets=("a0",)))
    assert (board(after, 0)["a0"].pa, board(after, 0)["a0"].pv, board(after, 0)["a0"].max_pv) == (4, 8, 8)
    after = end_turns(after, 1)  # end of the turn it was applied: does not count
    assert board(after, 0)["a0"].pa == 4
    after = end_turns(after, 1)  # the opponent's end of turn: not the owner's
    assert board(after, 0)["a0"].pa == 4
    after = end_turns(after, 1)  # the owner's next end of turn: expires
    assert (board(after, 0)["a0"].pa, board(after, 0)["a0"].max_pv) == (2, 5)
    assert not after.timed


def test_modify_without_turns_lasts_and_pa_never_below_zero() -> None:
    state = pure_game({"kind": "modify", "target": "enemy", "pa": -5, "pv": -1})
    after = end_turns(play(state, PlayEffect(card="p0", targets=("e0",))), 3)
    assert (board(after, 1)["e0"].pa, board(after, 1)["e0"].max_pv) == (0, 4)


def test_protect_forbids_direct_attacks_only() -> None:
    # the opponent protects e0 on its turn: seat 0 attacks it on its own turn
    foe = game(effects={"p": effect("from_hand", {"kind": "protect", "target": "ally", "turns": 1})})
    foe = foe.model_copy(update={"active": 1})
    side1 = foe.sides[1].model_copy(update={"hand": (pure("p1"),)})
    foe = foe.model_copy(update={"sides": (foe.sides[0], side1)})
    foe = play(foe, PlayEffect(card="p1", targets=("e0",)), seat=1)
    foe = ENGINE.end_turn(foe)[0]  # seat 0's turn now
    with pytest.raises(IllegalAction, match="illegal_action"):
        ENGINE.apply(foe, 0, Attack(attacker="a0", target="e0"))
    after = play(
        pure_game({"kind": "damage", "target": "enemy", "amount": 1}).model_copy(update={"timed": foe.timed}),
        PlayEffect(card="p0", targets=("e0",)),
    )
    assert board(after, 1)["e0"].pv == 4  # effects still reach it


def test_stun_forbids_attacking() -> None:
    foe = game(effects={"p": effect("from_hand", {"kind": "stun", "target": "enemy_front", "turns": 1})})
    foe = foe.model_copy(update={"active": 1})
    side1 = foe.sides[1].model_copy(update={"hand": (pure("p1"),)})
    foe = foe.model_copy(update={"sides": (foe.sides[0], side1)})
    foe = ENGINE.end_turn(play(foe, PlayEffect(card="p1"), seat=1))[0]
    assert foe.active == 0
    with pytest.raises(IllegalAction):
        ENGINE.apply(foe, 0, Attack(attacker="a0", target="e0"))


def test_destroy_sends_targets_to_the_graveyard_whatever_their_pv() -> None:
    after = play(pure_game({"kind": "destroy", "target": "enemy_reserve"}), PlayEffect(card="p0"))
    assert list(board(after, 1)) == ["e0"]
    assert after.sides[1].graveyard[-1].uid == "e1"


def test_move_respects_the_front_line_and_free_slots() -> None:
    after = play(
        pure_game({"kind": "move", "target": "enemy", "to": "reserve"}),
        PlayEffect(card="p0", targets=("e0",)),
    )
    assert [c.uid for c in after.sides[1].front] == ["e0"]  # the last front wizard stays
    after = play(
        pure_game({"kind": "move", "target": "enemy", "to": "front"}), PlayEffect(card="p0", targets=("e1",))
    )
    assert [c.uid for c in after.sides[1].front] == ["e0", "e1"]


def test_draw_is_private_and_capped() -> None:
    state, events = ENGINE.apply(pure_game({"kind": "draw", "count": 2}), 0, PlayEffect(card="p0"))
    assert len(state.sides[0].hand) == 2
    drew = next(e for e in events if e.kind == "drew")
    assert drew.visible_to == frozenset({0})
    assert ENGINE.view(state, 1).sides[0].hand is None


def test_discard_and_mill_hit_the_opponent_at_random() -> None:
    after = play(pure_game({"kind": "discard", "count": 3}), PlayEffect(card="p0"))
    assert not after.sides[1].hand
    assert len(after.sides[1].graveyard) == 2
    after = play(pure_game({"kind": "mill", "count": 3}), PlayEffect(card="p0"))
    assert len(after.sides[1].pioche) == 9
    assert len(after.sides[1].graveyard) == 3


def test_recall_takes_chosen_wizards_back_with_catalog_stats() -> None:
    state = pure_game({"kind": "recall", "count": 1})
    dead = (wiz("g0").model_copy(update={"pv": 0, "pa": 9}), wiz("g1"), pure("g2"))
    side = state.sides[0].model_copy(update={"graveyard": dead})
    state = state.model_copy(update={"sides": (side, state.sides[1])})
    after, events = ENGINE.apply(state, 0, PlayEffect(card="p0", recall=("g0",)))
    back = after.sides[0].hand[0]
    assert (back.uid, back.pa, back.pv) == ("g0", 2, 5)
    assert next(e for e in events if e.kind == "effect_recall").visible_to == frozenset({0})


def test_extra_summon_allows_another_placement_after_the_effect() -> None:
    state = pure_game({"kind": "extra_summon", "count": 1})
    state = with_hand(state, pure("p0"), wiz("w9"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Summon(card="w9", line="front"))
    after = play(state, PlayEffect(card="p0"))
    after = play(after, Summon(card="w9", line="front"))
    assert "w9" in board(after, 0)


def test_redraw_shuffles_the_hand_back_and_draws_as_many() -> None:
    state = with_hand(pure_game({"kind": "redraw"}), pure("p0"), wiz("w1"), wiz("w2"))
    after = play(state, PlayEffect(card="p0"))
    assert len(after.sides[0].hand) == 2
    assert len(after.sides[0].pioche) == 12


# --- triggers, durations, stays ------------------------------------------------------------------------


def test_on_place_resolves_at_the_summon_with_the_chosen_target() -> None:
    state = game(
        effects={"w": effect("on_place", {"kind": "damage", "target": "enemy", "amount": 2})}, phase=0
    )
    state = with_hand(state.model_copy(update={"progress": TurnProgress()}), wiz("w0", card_id="w"))
    after = play(state, Summon(card="w0", line="front", targets=("e1",)))
    assert board(after, 1)["e1"].pv == 3
    assert not after.actives
    with pytest.raises(IllegalAction, match="illegal_action"):
        ENGINE.apply(state, 0, Summon(card="w0", line="front", targets=("a0",)))  # not an enemy


def test_continuous_triggers_at_placement_then_each_owner_end_of_turn_within_duration() -> None:
    eff = effect("continuous", {"kind": "damage", "target": "enemy_reserve", "amount": 1}, duration=2)
    state = game(effects={"w": eff}, phase=0)
    foe = state.sides[1].model_copy(update={"reserve": (wiz("e1", pv=10),)})
    state = state.model_copy(update={"progress": TurnProgress(), "sides": (state.sides[0], foe)})
    state = with_hand(state, wiz("w0", card_id="w"))
    after = play(state, Summon(card="w0", line="front"))
    assert board(after, 1)["e1"].pv == 9
    after = end_turns(after, 1)  # end of the placement turn: no trigger
    assert board(after, 1)["e1"].pv == 9
    after = end_turns(after, 2)  # opponent's end (none), owner's end (1st)
    assert board(after, 1)["e1"].pv == 8
    after = end_turns(after, 2)  # 2nd and last
    assert board(after, 1)["e1"].pv == 7
    assert not after.actives
    after = end_turns(after, 2)
    assert board(after, 1)["e1"].pv == 7


def test_continuous_stops_when_its_wizard_leaves_the_board() -> None:
    eff = effect("continuous", {"kind": "heal", "target": "self", "amount": 1})
    state = game(effects={"w": eff}, phase=0)
    state = with_hand(state.model_copy(update={"progress": TurnProgress()}), wiz("w0", card_id="w"))
    after = play(state, Summon(card="w0", line="front"))
    assert len(after.actives) == 1
    mine = after.sides[0].model_copy(update={"front": (wiz("a0"),)})
    after = ENGINE.end_turn(after.model_copy(update={"sides": (mine, after.sides[1])}))[0]
    assert not after.actives


def test_a_staying_pure_effect_repeats_then_goes_to_the_graveyard() -> None:
    state = pure_game({"kind": "damage", "target": "all_enemies", "amount": 1}, duration=1, stays=True)
    after = play(state, PlayEffect(card="p0"))
    assert board(after, 1)["e0"].pv == 4
    assert after.actives[0].card is not None
    assert all(c.uid != "p0" for c in after.sides[0].graveyard)
    after = end_turns(after, 3)
    assert board(after, 1)["e0"].pv == 3
    assert not after.actives
    assert after.sides[0].graveyard[-1].uid == "p0"
    assert ENGINE.view(after, 1).active_effects == ()


# --- targets ---------------------------------------------------------------------------------------------


def test_one_chosen_target_is_shared_by_the_steps_of_an_effect() -> None:
    state = pure_game(
        {"kind": "damage", "target": "random_enemy", "amount": 1},
        {"kind": "damage", "target": "random_enemy", "amount": 1},
        {"kind": "modify", "target": "ally", "pa": 1, "pv": 0},
    )
    after = play(state, PlayEffect(card="p0", targets=("a1",)))
    hurt = [c.pv for c in after.sides[1].board()]
    assert sorted(hurt) == [3, 5]  # the same random enemy twice
    assert board(after, 0)["a1"].pa == 3
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, PlayEffect(card="p0", targets=("a1", "e0")))  # one chosen target only


@pytest.mark.parametrize(
    ("target", "hit"),
    [
        ("all_enemies", {"e0", "e1"}),
        ("enemy_front", {"e0"}),
        ("enemy_reserve", {"e1"}),
        ("all_allies", {"a0", "a1"}),
        ("ally_front", {"a0"}),
        ("ally_reserve", {"a1"}),
    ],
)
def test_group_targets(target: str, hit: set[str]) -> None:
    after = play(pure_game({"kind": "damage", "target": target, "amount": 1}), PlayEffect(card="p0"))
    hurt = {uid for seat in (0, 1) for uid, c in board(after, seat).items() if c.pv == 4}
    assert hurt == hit


def test_self_and_random_ally_targets() -> None:
    eff = effect(
        "on_place",
        {"kind": "modify", "target": "self", "pa": 1, "pv": 0},
        {"kind": "heal", "target": "random_ally", "amount": 1},
    )
    state = with_hand(
        game(effects={"w": eff}, phase=0).model_copy(update={"progress": TurnProgress()}),
        wiz("w0", card_id="w"),
    )
    after, events = ENGINE.apply(state, 0, Summon(card="w0", line="reserve"))
    assert board(after, 0)["w0"].pa == 3
    healed = [e.data["targets"] for e in events if e.kind == "effect_step" and e.data["step"] == "heal"]
    assert len(healed) == 1
    assert len(healed[0]) == 1
    assert healed[0][0] in {"a0", "a1", "w0"}


def test_an_empty_target_does_nothing_and_later_steps_still_resolve() -> None:
    state = pure_game(
        {"kind": "destroy", "target": "enemy_front"},
        {"kind": "damage", "target": "enemy_front", "amount": 1},
        {"kind": "draw", "count": 1},
    )
    after = play(state, PlayEffect(card="p0"))
    assert "e0" not in board(after, 1)
    assert len(after.sides[0].hand) == 1


# --- limits and special rules ------------------------------------------------------------------------------


def test_at_most_two_pure_effects_a_turn() -> None:
    state = with_hand(pure_game({"kind": "draw", "count": 1}), pure("p0"), pure("p1"), pure("p2"))
    after = play(play(state, PlayEffect(card="p0")), PlayEffect(card="p1"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(after, 0, PlayEffect(card="p2"))
    assert not any(isinstance(a, PlayEffect) for a in ENGINE.legal_actions(after, 0))


def test_pure_effects_in_a_turn_submission_and_phase_order() -> None:
    state = with_hand(pure_game({"kind": "damage", "target": "enemy", "amount": 1}), pure("p0"))
    after = play(
        state, Turn(steps=(PlayEffect(card="p0", targets=("e0",)), Attack(attacker="a0", target="e0")))
    )
    assert after.active == 1
    moved = play(state, Move(card="a1", line="front"))
    with pytest.raises(IllegalAction, match="illegal_action"):
        ENGINE.apply(moved, 0, PlayEffect(card="p0"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Summon(card="p0", line="front"))  # a pure effect is never placed


def test_magic_excess_after_a_draw_of_pure_effects_only() -> None:
    hand = tuple(pure(f"p{i}") for i in range(4))
    mine = Side(pioche=(pure("p8"), *(wiz(f"k{i}") for i in range(11))), hand=hand, front=(wiz("a0"),))
    after, events = ENGINE.end_turn(game(mine=mine).model_copy(update={"active": 1}))
    assert any(e.kind == "magic_excess" for e in events)
    redrew = next(e for e in events if e.kind == "redrew")
    assert redrew.visible_to == frozenset({0})  # the new hand stays private
    assert len(after.sides[0].hand) == 5
    assert len(after.sides[0].pioche) == 11


def test_magic_excess_is_blocked_by_a_small_pioche_and_more_than_one_wizard() -> None:
    blocked = Side(pioche=(pure("p8"),), hand=(pure("p0"),), front=(wiz("a0"),), reserve=(wiz("a1"),))
    _, events = ENGINE.end_turn(game(mine=blocked).model_copy(update={"active": 1}))
    assert not any(e.kind == "magic_excess" for e in events)
    small = Side(pioche=(pure("p8"),), hand=(pure("p0"),), front=(wiz("a0"),))  # one wizard only
    _, events = ENGINE.end_turn(game(mine=small).model_copy(update={"active": 1}))
    assert any(e.kind == "magic_excess" for e in events)


def test_a_deck_attack_destroys_a_pure_effect_card() -> None:
    theirs = Side(pioche=(pure("q0"),), hand=(wiz("h0"),))
    state = game(theirs=theirs, phase=2)
    after, events = ENGINE.apply(state, 0, DeckAttack(attacker="a0"))
    assert not after.sides[1].pioche
    assert after.sides[1].graveyard[0].uid == "q0"
    assert next(e for e in events if e.kind == "deck_attacked").data["killed"] is True


def test_pure_cards_are_not_wizards_for_the_end_of_the_game() -> None:
    assert Side(pioche=(pure("q0"),), hand=(pure("q1"),)).alive() == 0


def test_sample_decks_hold_effect_cards() -> None:
    setup = ENGINE.sample_setup(random.Random(3), sample_catalog())
    state = ENGINE.new_game(list(setup.players), 3, setup.options)
    assert state.effects
    kinds = {state.effects[c].trigger for c in state.effects}
    assert kinds <= {"on_place", "continuous", "from_hand"}


def test_pure_cards_are_never_prepared_and_prepared_effect_wizards_trigger_at_the_reveal() -> None:
    eff = effect("on_place", {"kind": "modify", "target": "self", "pa": 1, "pv": 0})
    hand0 = (wiz("w0", card_id="w"), pure("p0"))
    sides = (Side(pioche=PIOCHE, hand=hand0), Side(pioche=FOE_PIOCHE, hand=(wiz("h0"),)))
    state = ChocoState(sides=sides, player_ids=(1, 2), rng=RngState.from_seed(1, "t"), effects={"w": eff})
    prepared = ENGINE.legal_actions(state, 0)
    assert all(isinstance(a, Prepare) for a in prepared)
    assert {a.card for a in prepared if isinstance(a, Prepare)} == {"w0"}
    state = play(play(state, ENGINE.legal_actions(state, 0)[0]), ENGINE.legal_actions(state, 1)[0], seat=1)
    assert state.turn == 1
    assert board(state, 0)["w0"].pa == 3


def test_the_72h_penalty_places_a_wizard_never_a_pure_card() -> None:
    from engine.choco.penalties import inactivity_72h

    mine = Side(pioche=PIOCHE, hand=(pure("p0"), wiz("w0", card_id="w")))
    eff = effect("on_place", {"kind": "damage", "target": "all_enemies", "amount": 1})
    state = game(mine=mine, effects={"w": eff}).model_copy(update={"progress": TurnProgress()})
    after, _ = inactivity_72h(state, 0)
    assert [c.uid for c in after.sides[0].front] == ["w0"]
    assert board(after, 1)["e0"].pv == 4
