"""The protocol adapter and the fast path: registration, secret simultaneous decisions, events, views,
JSON, and the promise that both paths give the same battle for the same seed and decisions."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.errors import IllegalAction, InvalidAction
from engine.hoss import ENGINE
from engine.hoss.actions import HossAction, Pass, Play
from engine.hoss.battle import Battle
from engine.hoss.convert import copy_battle, from_state, to_state
from engine.hoss.fighters import Fighter, Side
from engine.hoss.sample import SAMPLE_CATALOG
from engine.hoss.simulate import clone, first_policy, passive_policy, prepare, random_policy, run, simulate
from engine.hoss.state import HossState
from engine.protocol import CATALOG_OPTION, SPECTATOR, Engine
from tests.engine.hoss.helpers import DECK_A, DECK_B, deck_catalog, player, slots_of
from tests.support.registries import every_game

CATALOG = deck_catalog()
PLAYERS = (player(0, DECK_A, rarity="divin", stars=2), player(1, DECK_B, rarity="platine", stars=4))
OPTIONS = {CATALOG_OPTION: CATALOG}


def test_the_engine_is_hoss_games_engine() -> None:
    assert every_game().engines()["hoss"] is ENGINE
    assert isinstance(ENGINE, Engine)


def test_both_seats_decide_secretly_then_the_battle_runs() -> None:
    state = ENGINE.new_game(PLAYERS, 5, OPTIONS)
    assert ENGINE.current_players(state) == [0, 1]
    mine = ENGINE.view(state, 0)
    assert mine.seats[0].hand_cards is not None
    assert [c.id for c in mine.seats[0].hand_cards] == list(state.seats[0].hand)
    assert mine.seats[1].hand_cards is None
    assert mine.seats[1].hand == 3
    assert ENGINE.hidden_cards(state, 1) == set(state.seats[1].hand)
    play = ENGINE.legal_actions(state, 1)[0]
    after, events = ENGINE.apply(state, 1, play)
    assert [e.kind for e in events] == ["answered"]
    assert events[0].data == {"seat": 1}
    assert ENGINE.current_players(after) == [0]
    assert ENGINE.view(after, 0).seats[1].answers is None  # the other seat's choice stays secret
    assert ENGINE.view(after, 1).seats[1].answers == (play,)
    assert ENGINE.view(after, 1).to_json()["seats"][1]["answers"] == [ENGINE.action_to_json(play)]
    with pytest.raises(IllegalAction):
        ENGINE.apply(after, 1, play)  # seat 1 is done
    final, events = ENGINE.apply(after, 0, Pass())
    kinds = [e.kind for e in events]
    assert kinds[0] == "answered"
    assert "round" in kinds
    assert kinds[-1] in ("pause", "end")
    first_round = next(e for e in events if e.kind == "round")
    assert (
        first_round.data["events"][0]
        == {
            "t": 0,
            "k": "play",
            "seat": 1,
            "tgt": play.card,  # type: ignore[union-attr]
            "card": final.seats[1].deck.lines[int(play.card[1:]) - 1].r1.card,  # type: ignore[union-attr]
            "hp": first_round.data["sides"][1]["creatures"][0]["hp_max"],
        }
    )
    for drew in (e for e in events if e.kind == "drew"):
        assert drew.visible_to == frozenset({drew.data["seat"]})


def test_actions_travel_as_json_and_garbage_is_refused() -> None:
    state = ENGINE.new_game(PLAYERS, 5, OPTIONS)
    for seat in (0, 1):
        for action in ENGINE.legal_actions(state, seat):
            raw = json.loads(json.dumps(ENGINE.action_to_json(action)))
            assert ENGINE.action_from_json(raw) == action
    for garbage in (
        None,
        {},
        {"kind": "play"},
        {"kind": "play", "card": 3, "protege": None},
        {"kind": "fly"},
        "pass",
        {"kind": "pass", "x": 1},
    ):
        with pytest.raises(InvalidAction):
            ENGINE.action_from_json(garbage)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Play("b1"))  # not this seat's card


def test_states_survive_json_mid_battle() -> None:
    state = ENGINE.new_game(PLAYERS, 9, OPTIONS)
    chooser = random.Random(9)
    while ENGINE.current_players(state):
        seat = ENGINE.current_players(state)[0]
        state, _ = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
        assert ENGINE.from_json(ENGINE.to_json(state)) == state
        assert to_state(from_state(state)) == state
    assert ENGINE.outcome(state) is not None


def protocol_game(
    seed: int,
    policies: Sequence[Any],
    move_pauses: bool = False,
    players: Any = PLAYERS,
    catalog: Any = CATALOG,
) -> tuple[HossState, list[dict[str, Any]], int]:
    """The whole battle through the protocol, each seat answering fully in seat order (as `run` does)."""
    state = ENGINE.new_game(players, seed, {CATALOG_OPTION: catalog, "move_pauses": move_pauses})
    records: list[dict[str, Any]] = []
    steps = 0
    while ENGINE.current_players(state):
        for seat in ENGINE.current_players(state):
            while ENGINE.legal_actions(state, seat):
                action = policies[seat](from_state(state), seat, ENGINE.legal_actions(state, seat))
                state, events = ENGINE.apply(state, seat, action)
                steps += 1
                records += [dict(e.data) for e in events if e.kind == "round"]
    return state, records, steps


def fast_game(
    seed: int,
    policies: Sequence[Any],
    move_pauses: bool = False,
    log: bool = True,
    players: Any = PLAYERS,
    catalog: Any = CATALOG,
) -> Battle:
    decks, cards = prepare(players, catalog)
    return run(Battle.start(decks, cards, seed, log=log, move_pauses=move_pauses), policies)


@pytest.mark.parametrize("move_pauses", [False, True])
def test_the_fast_path_and_the_protocol_give_the_same_battle(move_pauses: bool) -> None:
    for seed in range(12):
        state, records, _ = protocol_game(seed, (random_policy(seed), random_policy(seed + 100)), move_pauses)
        fast = fast_game(seed, (random_policy(seed), random_policy(seed + 100)), move_pauses)
        assert fast.records == records
        assert to_state(fast) == state
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        assert outcome.winners == fast.winners
        assert outcome.reason == fast.reason


def test_both_paths_agree_on_random_decks_with_every_status_and_ability() -> None:
    """The built-in sample catalog has every status, deflection, healing, two-path lines and all buffs."""
    for seed in range(40):
        setup = ENGINE.sample_setup(random.Random(seed), SAMPLE_CATALOG)
        catalog, move_pauses = setup.options[CATALOG_OPTION], setup.options["move_pauses"]
        policies = (random_policy(seed), random_policy(seed + 1))
        state, records, _ = protocol_game(seed, policies, move_pauses, setup.players, catalog)
        policies = (random_policy(seed), random_policy(seed + 1))
        fast = fast_game(seed, policies, move_pauses, players=setup.players, catalog=catalog)
        assert fast.records == records
        assert to_state(fast) == state


def test_same_seed_and_decisions_give_the_same_log_and_logging_changes_nothing() -> None:
    logs = [fast_game(4, (random_policy(1), random_policy(2))).records for _ in range(2)]
    assert logs[0] == logs[1]
    assert logs[0]
    assert fast_game(5, (random_policy(1), random_policy(2))).records != logs[0]
    quiet = fast_game(4, (random_policy(1), random_policy(2)), log=False)
    loud = fast_game(4, (random_policy(1), random_policy(2)))
    assert quiet.records == []
    assert quiet.entries is None
    assert (quiet.winners, quiet.reason, quiet.round, quiet.scores, quiet.hits) == (
        loud.winners,
        loud.reason,
        loud.round,
        loud.scores,
        loud.hits,
    )
    assert to_state(quiet) == to_state(loud)


def test_simulate_takes_setups_or_prepared_decks() -> None:
    decks, cards = prepare(PLAYERS, CATALOG)
    a = simulate(PLAYERS[0], PLAYERS[1], 3, catalog=CATALOG, log=True)
    b = simulate(decks[0], decks[1], 3, cards=cards)
    assert (a.winners, a.rounds, a.scores, a.hits) == (b.winners, b.rounds, b.scores, b.hits)
    assert a.log is not None
    assert b.log is None
    assert a.hits > 0
    with pytest.raises(ValueError, match="needs a catalog or prepared cards"):
        simulate(PLAYERS[0], PLAYERS[1], 3)


def test_a_clone_plays_on_independently() -> None:
    battle = fast_game(6, (first_policy, first_policy))
    decks, cards = prepare(PLAYERS, CATALOG)
    start = Battle.start(decks, cards, 6)
    copy = clone(start)
    run(copy, (first_policy, first_policy))
    assert start.round == 0
    assert not start.over
    assert copy.winners == battle.winners
    assert copy.round == battle.round


def _continued(battle: Battle, seed: int) -> tuple[HossState, list[Any]]:
    """The battle played on to its end with a seeded random policy: its last state and its log."""
    policy = random_policy(seed)
    run(battle, (policy, policy))
    return to_state(battle), battle.records


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_a_clone_is_the_battle_the_state_translation_gives_back(seed: int) -> None:
    """At every pause the look-aheads' copy holds the same state as a round trip through `HossState`,
    and both play on to the same battle, log included (Défenseurs, statuses, evolutions, deflections)."""
    decks, cards = prepare(PLAYERS, CATALOG)
    battle = Battle.start(decks, cards, seed, move_pauses=True)
    policy = random_policy(seed)
    pauses = 0
    while not battle.over:
        copy, restored = clone(battle, log=True), from_state(to_state(battle), log=True)
        assert to_state(copy) == to_state(battle)
        assert _continued(copy, pauses) == _continued(restored, pauses)
        pauses += 1
        for s in battle.waiting():
            legal = battle.legal_actions(s)
            while legal:
                battle.answer(s, policy(battle, s, legal))
                legal = battle.legal_actions(s)
        battle.resume()
    assert pauses > 3


def test_a_creatures_twin_carries_every_attribute() -> None:
    """`Fighter.twin` names its attributes one by one: a new one it forgot fails here, with or without
    the stats computed (a battle restored from a state computes them lazily)."""
    battle = Battle.start(*prepare(PLAYERS, CATALOG), 2)
    for _ in range(3):
        for seat in battle.waiting():
            while legal := battle.legal_actions(seat):
                battle.answer(seat, legal[0])
        battle.resume()
    creatures = [*battle.fighters(), *from_state(to_state(battle)).fighters()]
    assert len(creatures) >= 4
    for f in creatures:
        twin = f.twin(f.side)
        for name in slots_of(Fighter):
            if name not in ("pool", "pool_version"):
                assert getattr(twin, name, None) == getattr(f, name, None), name


def test_a_battles_copy_carries_every_attribute_of_its_sides() -> None:
    """`Side._take` names the attributes of a side's copy one by one: a new one it forgot fails here.
    What changes during a battle is a new list of the same items; the creatures are their twins."""
    battle = Battle.start(*prepare(PLAYERS, CATALOG), 2)
    for _ in range(3):
        for seat in battle.waiting():
            while legal := battle.legal_actions(seat):
                battle.answer(seat, legal[0])
        battle.resume()
    copy = copy_battle(battle)
    for side, twin in zip(battle.sides, copy.sides, strict=True):
        assert twin.foe is copy.sides[1 - side.seat]
        assert [f.uid for f in twin.fighters] == [f.uid for f in side.fighters]
        assert [f.uid for f in twin.defenders] == [f.uid for f in side.defenders]
        for name in slots_of(Side):
            if name in ("foe", "fighters", "defenders", "legal_cache"):
                continue
            want = 0 if name == "version" else getattr(side, name)
            assert getattr(twin, name, None) == want, name
            if isinstance(want, list):
                assert getattr(twin, name) is not want, name


def test_the_longest_battles_stay_within_max_steps() -> None:
    always_move = _mover
    _, _, steps = protocol_game(1, (passive_policy, passive_policy))
    assert steps == 2 * 60  # both seats pass before every round
    _, _, steps = protocol_game(1, (always_move, always_move), move_pauses=True)
    assert steps <= ENGINE.max_steps


def _mover(battle: Any, seat: int, legal: Sequence[HossAction]) -> HossAction:
    return next((a for a in legal if type(a).__name__ == "Move"), legal[0])


def test_the_public_view_shows_no_hand_and_the_end_is_an_outcome() -> None:
    state, _, _ = protocol_game(2, (first_policy, first_policy))
    public = ENGINE.view(state, SPECTATOR)
    assert public.you is None
    assert public.finished is True
    assert all(seat.hand_cards is None and seat.legal is None for seat in public.seats)
    json.dumps(public.to_json())
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == public.winners
    assert ENGINE.current_players(state) == []
    assert ENGINE.legal_actions(state, 0) == []


def test_a_draw_is_an_outcome_without_winners() -> None:
    state, _, _ = protocol_game(2, (passive_policy, passive_policy))
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.draw
    assert outcome.reason == "hoss.outcome.points_draw"


def test_sample_setups_are_valid_for_any_catalog() -> None:
    for seed in range(20):
        for catalog in (SAMPLE_CATALOG, CATALOG):
            setup = ENGINE.sample_setup(random.Random(seed), catalog)
            state = ENGINE.new_game(setup.players, seed, setup.options)
            assert ENGINE.current_players(state) == [0, 1]


def test_the_view_shows_the_board_as_the_log_records_it() -> None:
    """The typed view and the log's round record are two writings of one board: after every round, each
    creature's card, rank, PV, shield, protégé, statuses and revival read the same in both."""
    state = ENGINE.new_game(PLAYERS, 4, OPTIONS)
    compared = 0
    while ENGINE.current_players(state):
        seat = ENGINE.current_players(state)[0]
        state, events = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
        rounds = [e.data for e in events if e.kind == "round"]
        if not rounds:
            continue
        for side, seat_view in zip(rounds[-1]["sides"], ENGINE.view(state, SPECTATOR).seats, strict=True):
            logged = [
                (
                    *(c["uid"], c["card"], c["rank"], c["hp"], c["hp_max"], c.get("shield", 0)),
                    *(c.get("protege"), tuple(c.get("statuses", {}).items()), c.get("revived", False)),
                )
                for c in side["creatures"]
            ]
            shown = [
                (c.uid, c.card, c.rank, c.hp, c.hp_max, c.shield, c.protege, c.statuses, c.revived)
                for c in seat_view.creatures
            ]
            assert shown == logged
            assert seat_view.hand + seat_view.pile == side["hand"] + side["pile"]  # draws follow the record
            assert dict(seat_view.synergy) == side["synergy"]
        compared += 1
    assert compared >= 5
