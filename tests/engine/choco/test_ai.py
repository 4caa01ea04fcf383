"""The practice opponent (engine/choco/ai.py): only legal answers, whole games to their end, and decisions
that depend on nothing its seat may not see."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.choco import ENGINE, ai_turn
from engine.choco.catalog import ChocoCatalog
from engine.choco.sample import sample_catalog
from engine.choco.state import Card, ChocoState, Prepare, Side, Turn
from engine.errors import IllegalAction
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog

GAMES = 60


@pytest.fixture(scope="module")
def real_catalog() -> ChocoCatalog:
    return load_catalog(DATA_DIR / "choco.json", ChocoCatalog)


def _new_game(catalog: ChocoCatalog, seed: int, max_turns: int = 200) -> ChocoState:
    rng = random.Random(seed)
    setup = ENGINE.sample_setup(rng, catalog)
    players = [PlayerSetup(p.seat, p.player_id, p.deck) for p in setup.players]
    return ENGINE.new_game(players, seed, {CATALOG_OPTION: catalog, "max_turns": max_turns})


def _play_out(state: ChocoState, seen: list[tuple[ChocoState, int]] | None = None) -> tuple[ChocoState, int]:
    """Both seats played by the AI; every answer is checked legal before it is applied."""
    answers = 0
    while not state.finished:
        for seat in ENGINE.current_players(state):
            if state.finished:
                break
            if seen is not None:
                seen.append((state, seat))
            answer = ai_turn(state, seat)
            assert ENGINE.is_legal(state, seat, answer), (answer, state.turn)
            state, _ = ENGINE.apply(state, seat, answer)
            answers += 1
            assert answers <= 2 + 2 * state.max_turns
    return state, answers


@pytest.mark.parametrize("which", ["real", "sample"])
def test_the_ai_plays_only_legal_turns_and_finishes_every_game(
    which: str, real_catalog: ChocoCatalog
) -> None:
    catalog = real_catalog if which == "real" else sample_catalog()
    reasons: Counter[str] = Counter()
    for seed in range(GAMES):
        final, _ = _play_out(_new_game(catalog, seed))
        outcome = ENGINE.outcome(final)
        assert final.finished
        assert outcome is not None
        reasons[outcome.reason] += 1
    # It attacks: games end because one side lost its wizards, not at the turn bound.
    assert reasons["choco.outcome.all_wizards_lost"] >= GAMES * 0.9, reasons


def test_a_preparatory_answer_is_a_placement_of_its_best_wizard(real_catalog: ChocoCatalog) -> None:
    state = _new_game(real_catalog, 7)
    answer = ai_turn(state, 1)
    assert isinstance(answer, Prepare)
    hand = {c.uid: c for c in state.sides[1].hand}
    best = max((c for c in state.sides[1].hand if not c.pure), key=lambda c: c.pa + c.pv)
    assert hand[answer.card].pa + hand[answer.card].pv == best.pa + best.pv
    assert answer.line == "front"


def test_the_ai_refuses_to_act_out_of_turn(real_catalog: ChocoCatalog) -> None:
    state = _new_game(real_catalog, 3)
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, ai_turn(state, seat))
    idle = 1 - state.active
    with pytest.raises(IllegalAction, match="illegal_action"):
        ai_turn(state, idle)


def _other_hand(state: ChocoState, seat: int, catalog: ChocoCatalog) -> ChocoState:
    """The same game where `seat`'s hand holds other cards (same instance ids, other catalog cards)."""
    wizards = [c for c in catalog.cards if c.type != "pure" and c.pa is not None and c.pv is not None]
    side = state.sides[seat]
    rng = random.Random(len(side.hand) + state.turn)
    hand = []
    for card in side.hand:
        other = rng.choice(wizards)
        assert other.pa is not None
        assert other.pv is not None
        hand.append(Card(uid=card.uid, card_id=other.id, pa=other.pa, pv=other.pv, max_pv=other.pv))
    changed = Side(**{**side.model_dump(), "hand": tuple(hand)})
    sides = (changed, state.sides[1]) if seat == 0 else (state.sides[0], changed)
    return state.model_copy(update={"sides": sides})


def test_the_ai_never_sees_the_opponents_hand(real_catalog: ChocoCatalog) -> None:
    """Its decision reads the seat's view; a game that differs only by the opponent's hand gets exactly
    the same answer, and that view holds none of the opponent's hidden instance ids."""
    checked = 0
    for seed in range(12):
        seen: list[tuple[ChocoState, int]] = []
        _play_out(_new_game(real_catalog, seed, max_turns=30), seen)
        for state, seat in seen:
            if state.turn == 0 or not state.sides[1 - seat].hand:
                continue
            twin = _other_hand(state, 1 - seat, real_catalog)
            assert twin.sides[1 - seat].hand != state.sides[1 - seat].hand
            assert ai_turn(twin, seat) == ai_turn(state, seat)
            view = ENGINE.view(state, seat)
            assert view.sides[1 - seat].hand is None
            assert view == ENGINE.view(twin, seat)
            text = view.to_json()
            assert not {f'"{uid}"' for uid in ENGINE.hidden_cards(state, 1 - seat)} & {
                f'"{uid}"' for uid in _strings(text)
            }
            checked += 1
    assert checked > 100


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def test_a_turn_answer_is_a_declared_turn(real_catalog: ChocoCatalog) -> None:
    state = _new_game(real_catalog, 11)
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, ai_turn(state, seat))
    answer = ai_turn(state, state.active)
    assert isinstance(answer, Turn)
    assert answer.steps  # a summon is owed at least
