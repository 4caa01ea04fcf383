"""Property tests (hypothesis) of what crosses the engines' edges: actions parsed from untrusted JSON, and the
JSON round trips of actions, states, events and outcomes.

`action_from_json` reads a button's payload or a stored move: whatever it is given, it returns an action
of its game or raises `InvalidAction` (data that is no action), never another exception, and the action it
returns survives its own round trip and is either played or refused with `IllegalAction` by `apply`,
exactly as `is_legal` says. The conformance test tries a fixed list of garbage; here hypothesis searches
arbitrary JSON and mutations of real actions. A broken setup raises the engine's one `setup_error`.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, Event, Outcome, PlayerSetup
from tests.engine.game_checks import ID, AnyEngine, GameChecks, all_checks, catalog, engine_of

CHECKS = all_checks()
GAMES = sorted(CHECKS)
ENGINES: dict[str, AnyEngine] = {game: engine_of(game) for game in GAMES}
GAMES_PLAYED = 3  # seeded games per engine whose states and legal actions feed the strategies

# Each property stays well under 5 s on a loaded machine; no deadline, since xdist workers share the cores.
PROPERTIES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@cache
def played(game: str) -> tuple[list[Any], list[Any], list[Event]]:
    """States, legal actions and events of a few seeded random games on the real catalog."""
    engine = ENGINES[game]
    states: list[Any] = []
    actions: list[Any] = []
    events: list[Event] = []
    for seed in range(GAMES_PLAYED):
        rng = random.Random(seed)
        setup = engine.sample_setup(rng, catalog(game))
        state = engine.new_game(setup.players, seed, setup.options)
        while current := engine.current_players(state):
            states.append(state)
            seat = rng.choice(current)
            legal = engine.legal_actions(state, seat)
            actions += legal[:8]
            state, more = engine.apply(state, seat, rng.choice(legal))
            events += more
        states.append(state)
    return states, actions, events


# --- strategies ---------------------------------------------------------------------------------------

IDS = st.sampled_from(
    ["a1", "b2", "c0", "c12", "c47", "x", "", "a" * 64, "a" * 65, "front", "reserve", "play"]
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=12)
    | IDS
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10) | IDS, inner, max_size=4)
    ),
    max_leaves=16,
)


def _mutate(raw: Any, draw: st.DrawFn) -> Any:
    """A real action's JSON with one thing changed: a value replaced, a key dropped or added, a list
    element changed, or the whole value wrapped."""
    how = draw(st.sampled_from(["replace", "drop", "add", "wrap", "nested"]))
    if not isinstance(raw, dict) or not raw or how == "wrap":
        return draw(st.sampled_from([[raw], {"action": raw}, json.dumps(raw)]))
    key = draw(st.sampled_from(sorted(raw)))
    changed = dict(raw)
    if how == "replace":
        changed[key] = draw(json_values)
    elif how == "drop":
        del changed[key]
    elif how == "add":
        changed[draw(st.text(max_size=8) | IDS)] = draw(json_values)
    elif isinstance(raw[key], list) and raw[key]:
        items = list(raw[key])
        index = draw(st.integers(0, len(items) - 1))
        items[index] = _mutate(items[index], draw) if isinstance(items[index], dict) else draw(json_values)
        changed[key] = items
    else:
        changed[key] = draw(json_values)
    return changed


@st.composite
def untrusted(draw: st.DrawFn, game: str) -> Any:
    """Anything a button payload or a database row could hold: arbitrary JSON, or a mutated real action."""
    _, actions, _ = played(game)
    if draw(st.booleans()):
        return draw(json_values)
    real = ENGINES[game].action_to_json(draw(st.sampled_from(actions)))
    return _mutate(json.loads(json.dumps(real)), draw)


# --- actions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_any_json_is_an_action_or_an_invalid_action(game: str) -> None:
    engine = ENGINES[game]
    states, _, _ = played(game)

    @PROPERTIES
    @given(raw=untrusted(game), state=st.sampled_from(states))
    def check(raw: Any, state: Any) -> None:
        try:
            action = engine.action_from_json(raw)
        except InvalidAction:
            return
        assert isinstance(action, CHECKS[game].action_types)
        again = engine.action_from_json(json.loads(json.dumps(engine.action_to_json(action))))
        assert again == action
        before = engine.to_json(state)
        for seat in (0, 1):
            legal = engine.is_legal(state, seat, action)
            try:
                engine.apply(state, seat, action)
            except IllegalAction:
                assert not legal, f"is_legal accepts {action!r}, which apply refuses"
                continue
            assert legal, f"is_legal refuses {action!r}, which apply plays"
            assert seat in engine.current_players(state)
        assert engine.to_json(state) == before

    check()


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_survives_its_json_round_trip(game: str) -> None:
    engine = ENGINES[game]
    _, actions, _ = played(game)

    @PROPERTIES
    @given(action=st.sampled_from(actions))
    def check(action: Any) -> None:
        raw = json.loads(json.dumps(engine.action_to_json(action)))
        assert engine.action_from_json(raw) == action

    check()


@pytest.mark.parametrize("game", GAMES)
def test_any_well_formed_action_survives_its_json_round_trip(game: str) -> None:
    """Not only the legal ones: a stored move of a game of another version must read back the same."""
    engine = ENGINES[game]

    @PROPERTIES
    @given(action=CHECKS[game].well_formed)
    def check(action: Any) -> None:
        raw = json.loads(json.dumps(engine.action_to_json(action)))
        assert engine.action_from_json(raw) == action

    check()


# --- setups -------------------------------------------------------------------------------------------


def _mutate_deep(value: Any, draw: st.DrawFn) -> Any:
    """`value` with one change somewhere inside it: a list element replaced, dropped or doubled, or a
    dict mutated as `_mutate` does."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: _mutate_deep(value[key], draw)}
    if isinstance(value, list) and value:
        index = draw(st.integers(0, len(value) - 1))
        how = draw(st.sampled_from(["descend", "replace", "drop", "double"]))
        items = list(value)
        if how == "descend":
            items[index] = _mutate_deep(items[index], draw)
        elif how == "replace":
            items[index] = draw(json_values)
        elif how == "drop":
            del items[index]
        else:
            items.insert(index, items[index])
        return items
    return _mutate(value, draw) if isinstance(value, dict) else draw(json_values)


@st.composite
def setups(draw: st.DrawFn, game: str) -> tuple[list[PlayerSetup], int, dict[str, Any]]:
    """A real sample setup with one thing broken: a seat, a deck card, a player's extras or an option."""
    engine = ENGINES[game]
    seed = draw(st.integers(0, 2**32))
    real = engine.sample_setup(random.Random(seed), catalog(game))
    players = list(real.players)
    options = {k: v for k, v in real.options.items() if k != CATALOG_OPTION}
    where = draw(st.sampled_from(["seat", "deck", "extra", "options", "players"]))
    index = draw(st.integers(0, len(players) - 1))
    player = players[index]
    if where == "seat":
        players[index] = replace(player, seat=draw(st.integers(-1, 3)))
    elif where == "deck":
        deck = json.loads(json.dumps(list(player.deck)))
        changed = _mutate_deep(deck, draw) if deck else deck
        cards = tuple(c for c in changed if isinstance(c, str)) + tuple(draw(st.lists(ID, max_size=2)))
        players[index] = replace(player, deck=cards)
    elif where == "extra":
        players[index] = replace(player, extra=_mutate_deep(json.loads(json.dumps(dict(player.extra))), draw))
    elif where == "options":
        changed = _mutate(options, draw)
        options = changed if isinstance(changed, dict) else {}
    else:
        players = draw(st.sampled_from([players[:1], [*players, replace(player, seat=2)], []]))
    return players, seed, {**options, CATALOG_OPTION: catalog(game)}


@pytest.mark.parametrize("game", GAMES)
def test_any_setup_starts_a_game_or_raises_the_setup_error(game: str) -> None:
    """Decks and extras come from stored collections: a broken one is refused with the game's one setup
    error, never a crash nor another error."""
    engine = ENGINES[game]

    @PROPERTIES
    @given(setups(game))
    def check(setup: tuple[list[PlayerSetup], int, dict[str, Any]]) -> None:
        players, seed, options = setup
        try:
            state = engine.new_game(players, seed, options)
        except engine.setup_error:
            return
        assert engine.from_json(engine.to_json(state)) == state
        assert engine.current_players(state) or engine.outcome(state) is not None

    check()


@pytest.mark.parametrize("bound", [None, "12", 12.5, True, 0, 201])
def test_a_choco_turn_bound_that_is_not_a_whole_number_in_range_is_refused(bound: Any) -> None:
    """Found by the property above: `max_turns=None` raised TypeError, "12" and 12.5 were accepted."""
    choco = ENGINES["choco"]
    setup = choco.sample_setup(random.Random(1), catalog("choco"))
    with pytest.raises(choco.setup_error):
        choco.new_game(setup.players, 1, {**setup.options, "max_turns": bound})


# --- states, events, outcomes -------------------------------------------------------------------------


@st.composite
def reached(draw: st.DrawFn, game: str) -> tuple[Any, list[Event]]:
    """A state hypothesis steers to (seed, then one choice per move), with the events on the way."""
    engine = ENGINES[game]
    seed = draw(st.integers(0, 2**32))
    setup = engine.sample_setup(random.Random(seed), catalog(game))
    state = engine.new_game(setup.players, seed, setup.options)
    events: list[Event] = []
    for choice in draw(st.lists(st.integers(0, 2**16), max_size=30)):
        current = engine.current_players(state)
        if not current:
            break
        seat = current[choice % len(current)]
        legal = engine.legal_actions(state, seat)
        state, more = engine.apply(state, seat, legal[choice % len(legal)])
        events += more
    return state, events


@pytest.mark.parametrize("game", GAMES)
def test_states_and_their_events_survive_their_json_round_trip(game: str) -> None:
    engine = ENGINES[game]

    @settings(PROPERTIES, max_examples=40)
    @given(reached(game))
    def check(played_so_far: tuple[Any, list[Event]]) -> None:
        state, events = played_so_far
        text = engine.to_json(state)
        assert engine.from_json(text) == state
        assert engine.to_json(engine.from_json(text)) == text
        for event in events:
            assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
        outcome = engine.outcome(state)
        if outcome is not None:
            assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome

    check()


FINITE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=16,
)


@PROPERTIES
@given(
    kind=st.text(min_size=1, max_size=30),
    data=st.dictionaries(st.text(max_size=10), FINITE, max_size=5),
    visible_to=st.none() | st.frozensets(st.integers(0, 5)),
)
def test_any_event_survives_its_json_round_trip(
    kind: str, data: dict[str, Any], visible_to: frozenset[int] | None
) -> None:
    event = Event(kind, data, visible_to)
    assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event


@PROPERTIES
@given(
    winners=st.lists(st.integers(0, 5), unique=True, max_size=3),
    scores=st.lists(st.integers(-(2**40), 2**40), max_size=4).map(tuple),
    reason=st.text(max_size=30),
)
def test_any_outcome_survives_its_json_round_trip(
    winners: list[int], scores: tuple[int, ...], reason: str
) -> None:
    outcome = Outcome(winners=tuple(winners), draw=not winners, scores=scores, reason=reason)
    assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome


def kinds_expected(checks: GameChecks) -> int:
    """Several kinds of actions, or the one a game declares (Pillz's `Play`): read from the game's own
    checks, so a new game with one kind of action edits nothing here."""
    return min(2, len(checks.action_types))


def test_the_real_games_feed_the_strategies() -> None:
    """Mutations start from real actions: every engine's pool holds several kinds of them."""
    for game in GAMES:
        states, actions, events = played(game)
        assert len(states) > 10
        assert events
        assert len({type(a) for a in actions}) >= kinds_expected(CHECKS[game])


def test_a_game_of_one_action_kind_is_asked_for_one() -> None:
    one = replace(CHECKS["pillz"], game="solo")
    assert kinds_expected(one) == 1
    assert kinds_expected(CHECKS["hoss"]) == 2
