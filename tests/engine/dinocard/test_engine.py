"""Dinocard behind the protocol: the battle is computed by `new_game`, watched with `Advance`, and what a
seat sees never runs ahead of the steps shown."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.dinocard.catalog import DinocardCatalog
from engine.dinocard.engine import DinocardEngine, DinocardSetupError
from engine.dinocard.state import ATTACKED, WATCHER, Advance
from engine.errors import IllegalAction
from engine.protocol import CATALOG_OPTION, SPECTATOR, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.dinocard.helpers import dinoz, small_catalog

ENGINE = DinocardEngine()


@pytest.fixture(scope="module")
def catalog() -> DinocardCatalog:
    return load_catalog(DATA_DIR / "dinocard.json", DinocardCatalog)


def start(catalog: DinocardCatalog, seed: int = 3) -> Any:
    setup = ENGINE.sample_setup(random.Random(seed), catalog)
    return ENGINE.new_game(setup.players, seed, setup.options)


def players(a: tuple[str, ...], b: tuple[str, ...], **extra: Any) -> list[PlayerSetup]:
    return [PlayerSetup(0, 10, a, extra), PlayerSetup(1, 20, b)]


def test_the_challenger_watches_and_the_attacked_plays_first(catalog: DinocardCatalog) -> None:
    state = start(catalog)
    assert ENGINE.current_players(state) == [WATCHER]
    assert state.first == ATTACKED
    assert state.log[0][0][:2] == (0, ATTACKED)  # the first step is the attacked seat's turn
    assert ENGINE.legal_actions(state, ATTACKED) == []


def test_advance_shows_one_step_or_the_rest_of_the_phase(catalog: DinocardCatalog) -> None:
    state = start(catalog)
    assert ENGINE.legal_actions(state, WATCHER) == [Advance(1), Advance(3)]
    state, events = ENGINE.apply(state, WATCHER, Advance(1))
    assert events[0].kind == "turn"
    assert ENGINE.legal_actions(state, WATCHER) == [Advance(1), Advance(2)]
    state, events = ENGINE.apply(state, WATCHER, Advance(2))
    assert [e.kind for e in events if e.kind in ("turn", "combat")] == ["turn", "combat"]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, WATCHER, Advance(2))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, ATTACKED, Advance(1))


def test_the_result_is_given_only_after_the_last_step(catalog: DinocardCatalog) -> None:
    state = start(catalog)
    assert ENGINE.outcome(state) is None
    view = ENGINE.view(state, SPECTATOR)
    assert (view.winner, view.reason, view.log) == (None, None, ())
    assert "steps" not in view.to_json()  # how many are left would tell when the battle ends
    while not state.finished:
        before = state
        state, events = ENGINE.apply(state, WATCHER, ENGINE.legal_actions(state, WATCHER)[-1])
        if not state.finished:
            assert ENGINE.outcome(state) is None
            assert all(e.kind != "ended" for e in events)
    assert events[-1].kind == "ended"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.reason == f"dinocard.outcome.{state.reason}"
    final = ENGINE.view(state, SPECTATOR)
    assert len(final.log) == len(state.log)
    assert final.log[-1][-1]["kind"] == "ended"
    assert before.shown < state.shown


def test_an_egg_is_hidden_from_the_other_seat_until_it_hatches(catalog: DinocardCatalog) -> None:
    state = start(catalog)
    while not state.finished:
        state, events = ENGINE.apply(state, WATCHER, Advance(1))
        eggs = [e for e in events if e.kind == "egg_card"]
        for egg in eggs:
            seat = egg.data["seat"]
            assert egg.visible_to == frozenset({seat})
            assert egg.data["card"] in ENGINE.hidden_cards(state, seat) or _hatched_or_died(state, egg)
            other = json.dumps(ENGINE.view(state, 1 - seat).to_json())
            assert json.dumps(egg.data["card"]) not in other
            own = ENGINE.view(state, seat).board["rails"][seat][egg.data["slot"]]
            assert own is None or "card" in own
        if eggs:
            return
    pytest.fail("no egg laid in the sample battle")


def _hatched_or_died(state: Any, egg: Any) -> bool:
    return state.public_at[egg.data["seat"]][int(egg.data["card"][1:])] < state.shown


def test_the_pack_still_to_play_is_hidden_and_nothing_once_over(catalog: DinocardCatalog) -> None:
    state = start(catalog)
    assert len(ENGINE.hidden_cards(state, 0)) == len(state.decks[0])
    state, _ = ENGINE.apply(state, WATCHER, Advance(1))
    laid = any(e[0] == 7 for e in state.log[0])  # an egg: its card stays hidden
    assert len(ENGINE.hidden_cards(state, ATTACKED)) == len(state.decks[ATTACKED]) - (0 if laid else 1)
    assert len(ENGINE.hidden_cards(state, 0)) == len(state.decks[0])
    while not state.finished:
        state, _ = ENGINE.apply(state, WATCHER, Advance(1))
    assert ENGINE.hidden_cards(state, 0) == ENGINE.hidden_cards(state, 1) == set()


def test_the_same_seed_computes_the_same_battle_and_another_seed_another(catalog: DinocardCatalog) -> None:
    setup = ENGINE.sample_setup(random.Random(5), catalog)
    first = ENGINE.new_game(setup.players, 11, setup.options)
    assert ENGINE.new_game(setup.players, 11, setup.options) == first
    logs = {ENGINE.new_game(setup.players, seed, setup.options).log for seed in range(11, 16)}
    assert len(logs) > 1


def test_strategy_keeps_the_first_cards_on_top_in_order() -> None:
    cards = [dinoz(f"d{i}", eclosion=5) for i in range(7)]
    catalog = small_catalog(cards)
    pack = tuple(c.id for c in cards for _ in range(3))[:20]
    seat = players(pack, pack, skills={"strategy": 4})
    options = {CATALOG_OPTION: catalog}
    for seed in range(5):
        state = ENGINE.new_game(seat, seed, options)
        eggs = [e for step in state.log for e in step if e[0] == 7 and e[1] == 0][:3]
        assert [e[3] for e in eggs] == [0, 1, 2]  # the first three placed are the pack's first three


def test_the_life_skill_sets_the_starting_life() -> None:
    catalog = small_catalog([])
    pack = tuple(f"filler{i % 7}" for i in range(20))
    state = ENGINE.new_game(players(pack, pack, skills={"life": 3}), 1, {CATALOG_OPTION: catalog})
    assert state.start_life == (26, 20)
    assert state.opening[1:3] == (26, 20)


def test_bonus_cards_join_the_pack_for_the_battle() -> None:
    catalog = small_catalog([dinoz("extra")])
    pack = tuple(f"filler{i % 7}" for i in range(20))
    state = ENGINE.new_game(
        players(pack, pack, skills={"bonus": 1}, bonus=["extra"]), 1, {CATALOG_OPTION: catalog}
    )
    assert state.decks[0] == (*pack, "extra")
    assert state.opening[3:5] == (21, 20)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"deck": ("filler0",) * 3 + tuple(f"filler{i % 6 + 1}" for i in range(16))}, "too_small"),
        ({"deck": ("filler0",) * 4 + tuple(f"filler{i % 6 + 1}" for i in range(16))}, "too_many_copies"),
        ({"deck": ("nope", *(f"filler{i % 7}" for i in range(19)))}, "unknown_card"),
        ({"extra": {"skills": {"life": -1}}}, "skills"),
        ({"extra": {"skills": {"luck": 1}}}, "skills"),
        ({"extra": {"bonus": ["filler1"]}}, "too_many_bonus"),
        ({"extra": {"skills": {"bonus": 2}, "bonus": ["filler1", "filler1"]}}, "too_many_copies"),
        ({"extra": {"colour": "red"}}, "extra"),
        ({"extra": {"bonus": "filler1"}}, "bonus"),
    ],
)
def test_a_broken_seat_raises_the_setup_error(change: dict[str, Any], reason: str) -> None:
    catalog = small_catalog([])
    pack = tuple(f"filler{i % 7}" for i in range(20))
    seat = PlayerSetup(0, 10, change.get("deck", pack), change.get("extra", {}))
    with pytest.raises(DinocardSetupError) as error:
        ENGINE.new_game([seat, PlayerSetup(1, 20, pack)], 1, {CATALOG_OPTION: catalog})
    assert error.value.params["reason"] == reason


def test_options_other_than_the_catalog_are_refused() -> None:
    catalog = small_catalog([])
    pack = tuple(f"filler{i % 7}" for i in range(20))
    with pytest.raises(DinocardSetupError):
        ENGINE.new_game(players(pack, pack), 1, {CATALOG_OPTION: catalog, "rounds": 2})


def test_a_master_plays_its_own_pack(catalog: DinocardCatalog) -> None:
    master = catalog.masters[-1]
    seats = [
        PlayerSetup(0, 10, catalog.masters[0].pack),
        PlayerSetup(1, 0, master.pack, {"skills": master.skills.model_dump()}),
    ]
    state = ENGINE.new_game(seats, 2, {CATALOG_OPTION: catalog})
    assert state.decks[1] == master.pack
    assert state.start_life[1] == 20 + 2 * master.skills.life
