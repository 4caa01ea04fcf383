"""One test of the protocol's invariants over every engine, in the spirit of OpenSpiel's random-game tests.

Seeded random games of each registered engine (plus the toy engine) must end within `max_steps`, give
every current player a legal move, survive a JSON round trip mid-game, replay identically from the same
seed and actions, never show a player another player's hidden cards, never mutate a state, and reject
illegal actions; and each engine follows the shared conventions (docs/engine.md): a typed action union,
one `finished` flag, one setup error, a required catalog, qualified outcome keys, `is_legal`, and
`InvalidAction` for data that is no action. A new game is covered as soon as its package registers its
engine.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import types
import typing
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, SPECTATOR, Engine, Event, GameView, Outcome, PlayerSetup, Setup
from engine.registry import EngineRegistry
from services.infra import games
from services.infra.catalogs import DATA_DIR, load_catalog
from tests.engine.game_checks import all_checks, engines_of_packages
from tests.engine.game_checks import catalog as checked_catalog
from tests.engine.toy_game import TOY_CATALOG, Play, ToyAction, ToyEngine
from tests.support.registries import every_game

GAMES = 200  # fully checked random games per engine
REPLAYED = 50  # of which replayed from the seed, and resumed from JSON mid-game
GARBAGE_ACTIONS: tuple[Any, ...] = (None, 0, -1, "", "x" * 300, [], {}, {"kind": None}, [[[]]], 1.5, True)

AnyEngine = Engine[Any, Any]


@cache
def _specs() -> tuple[games.GameSpec, ...]:
    return tuple(every_game().all_games())


def every_engine() -> list[AnyEngine]:
    found: dict[str, AnyEngine] = dict(engines_of_packages())
    for spec in _specs():
        if spec.engine is not None:
            found.setdefault(spec.engine.name, spec.engine)
    found.setdefault(ToyEngine.name, ToyEngine())
    return [found[name] for name in sorted(found)]


ENGINES = every_engine()


_catalogs: dict[str, Any] = {}


def _catalog_for(engine: AnyEngine) -> Any:
    """The game's real catalog from data/, which `sample_setup` draws decks from (the toy's own list).

    Read with the model its `GameSpec` declares, or, for an engine no service declares yet (a game built
    engine first), with the model of its `tests/engine/<game>/checks.py`."""
    if isinstance(engine, ToyEngine):
        return TOY_CATALOG
    if engine.name not in _catalogs:
        _catalogs[engine.name] = next(
            (
                load_catalog(DATA_DIR / f"{spec.key}.json", spec.catalog_model)
                for spec in _specs()
                if spec.engine is engine and spec.catalog_model is not None
            ),
            None,
        )
        if _catalogs[engine.name] is None and engine.name in all_checks():
            _catalogs[engine.name] = checked_catalog(engine.name)
    return _catalogs[engine.name]


# --- playing ------------------------------------------------------------------------------------------


@dataclass
class Game:
    setup: Setup
    seed: int
    moves: list[tuple[int, Any]] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)
    final: str = ""
    outcome: Outcome | None = None


Policy = Callable[[Any, list[int]], tuple[int, Any]]
# Checks one step and applies it: returns what `engine.apply(state, player, action)` returns.
StepCheck = Callable[[Any, int, Any], tuple[Any, list[Event]]]
Legal = Callable[[Any, int], list[Any]]


def random_policy(engine: AnyEngine, seed: int, legal_actions: Legal | None = None) -> Policy:
    """Random seat among those to act (so simultaneous choices come in every order), random legal move.

    `legal_actions`: where the lists come from, `engine.legal_actions` unless given (a checked game
    passes its Checker's, which asks the engine once per state and seat)."""
    chooser = random.Random(seed * 1_000_003 + 17)
    listed = engine.legal_actions if legal_actions is None else legal_actions

    def choose(state: Any, current: list[int]) -> tuple[int, Any]:
        player = chooser.choice(current)
        legal = listed(state, player)
        assert legal, f"seat {player} must act but has no legal action"
        return player, chooser.choice(legal)

    return choose


def replay_policy(moves: list[tuple[int, Any]]) -> Policy:
    queue: Iterator[tuple[int, Any]] = iter(moves)

    def choose(state: Any, current: list[int]) -> tuple[int, Any]:
        return next(queue)

    return choose


def new_game(engine: AnyEngine, seed: int) -> tuple[Setup, Any]:
    setup = engine.sample_setup(random.Random(seed), _catalog_for(engine))
    return setup, engine.new_game(setup.players, seed, setup.options)


def play(
    engine: AnyEngine,
    seed: int,
    policy: Policy,
    state: Any = None,
    setup: Setup | None = None,
    steps: int = 0,
    limit: int | None = None,
    check: StepCheck | None = None,
) -> tuple[Game, Any]:
    """Play until the end (or `limit` moves); returns the record and the last state."""
    if state is None:
        setup, state = new_game(engine, seed)
    assert setup is not None
    game = Game(setup=setup, seed=seed)
    while limit is None or len(game.moves) < limit:
        current = engine.current_players(state)
        assert state.finished == (not current), "`finished` is true exactly when nobody must act"
        if not current:
            break
        assert engine.outcome(state) is None, "a game with players to act must not have an outcome"
        assert steps < engine.max_steps, f"{engine.name}: still going after max_steps={engine.max_steps}"
        player, action = policy(state, current)
        state, events = engine.apply(state, player, action) if check is None else check(state, player, action)
        steps += 1
        game.moves.append((player, action))
        game.events.append([e.to_json() for e in events])
    if not engine.current_players(state):
        game.outcome = engine.outcome(state)
        assert game.outcome is not None, "a game nobody must act in is over and has an outcome"
        assert game.outcome.reason.startswith(f"{engine.name}.outcome."), game.outcome.reason
    game.final = engine.to_json(state)
    return game, state


# --- the checks made at every step of a checked game ---------------------------------------------------


def _mentions(blob: str, secrets: set[str]) -> set[str]:
    """Secrets appearing as whole JSON strings (values or keys), so "c1" is not found inside "c12"."""
    return {s for s in secrets if _quoted(s) in blob}


@cache
def _quoted(secret: str) -> str:
    """`json.dumps(secret)`, written once per identifier: the same few hundred cards are looked for in
    every view and event of every game (three million writes for Dinocard's games alone)."""
    return json.dumps(secret)


def _hidden_by_seat(engine: AnyEngine, state: Any, seats: list[int]) -> dict[int, set[str]]:
    hidden: dict[int, set[str]] = {}
    for seat in seats:
        cards = engine.hidden_cards(state, seat)
        assert all(isinstance(c, str) and c for c in cards), "hidden card identifiers are non-empty strings"
        hidden[seat] = cards
    return hidden


def _hidden_from(hidden_by_seat: dict[int, set[str]], viewer: int) -> set[str]:
    """The cards `viewer` must not see: every other seat's hidden cards."""
    return set().union(*(cards for seat, cards in hidden_by_seat.items() if seat != viewer))


def _lookup(actions: list[Any]) -> Collection[Any]:
    """A set when the actions hash (frozen models): each `in` is then one lookup rather than an `==` per
    legal action, which took a seventh of the Chocobataille games' time. The answers are the same, since
    equal actions hash alike."""
    try:
        return set(actions)
    except TypeError:
        return actions


class Checker:
    """Everything checked around one `apply`; `seen` collects actions to try where they are illegal."""

    def __init__(self, engine: AnyEngine, seats: list[int], seed: int) -> None:
        self.engine = engine
        self.seats = seats
        self.seen: dict[str, Any] = {}
        self.rng = random.Random(seed)
        self.action_types = _action_types(engine)
        # The last state asked about, with its legal actions and hidden cards: a step's policy and checks
        # ask the same state, and the state after a step is the next step's state before.
        self._legal: tuple[Any, dict[int, list[Any]]] = (None, {})
        self._hidden: tuple[Any, dict[int, set[str]]] = (None, {})

    def legal(self, state: Any, seat: int) -> list[Any]:
        """`engine.legal_actions(state, seat)`, asked once per state and seat (the policy passes it)."""
        if self._legal[0] is not state:
            self._legal = (state, {})
        listed = self._legal[1]
        if seat not in listed:
            listed[seat] = self.engine.legal_actions(state, seat)
        return listed[seat]

    def hidden(self, state: Any) -> dict[int, set[str]]:
        """Each seat's hidden cards in `state`, asked once per state: its views and the events that made
        it are all searched for them. A state is never changed meanwhile (every `apply` is checked)."""
        if self._hidden[0] is not state:
            self._hidden = (state, _hidden_by_seat(self.engine, state, self.seats))
        return self._hidden[1]

    def __call__(self, state: Any, player: int, action: Any) -> tuple[Any, list[Event]]:
        engine = self.engine
        before = engine.to_json(state)
        restored = engine.from_json(before)
        assert restored == state, "from_json(to_json(state)) must equal the state"
        assert engine.to_json(restored) == before
        self.check_views(state)
        current = engine.current_players(state)
        assert current == sorted(set(current)), "current_players: distinct seats in seat order"
        assert set(current) <= set(self.seats)
        legal_by_seat = {seat: self.legal(state, seat) for seat in self.seats}
        for seat in self.seats:
            legal = legal_by_seat[seat]
            if seat in current:
                assert legal, f"seat {seat} must act but has no legal action"
                # is_legal costs a legal_actions call: asked of a few legal actions per step, always the
                # one played, it still meets tens of thousands of them over the random games.
                asked = {id(a) for a in self.rng.sample(legal, min(IS_LEGAL_SAMPLE, len(legal)))}
                for a in legal:
                    assert isinstance(a, self.action_types), f"{a!r} is not of the engine's action type"
                    if id(a) in asked or a == action:
                        assert engine.is_legal(state, seat, a), f"is_legal refuses the legal {a!r}"
                    key = json.dumps(engine.action_to_json(a), sort_keys=True)
                    # An action equal to the one first seen with its JSON round-trips as that one did.
                    if key not in self.seen or self.seen[key] != a:
                        self.check_action_json(a)
                    self.seen.setdefault(key, a)
            else:
                assert legal == [], f"seat {seat} need not act, so it has no legal action"
        self.check_rejections(state, legal_by_seat, before)
        self.check_garbage(state, player, legal_by_seat[player], before)
        after, events = engine.apply(state, player, action)
        assert engine.to_json(state) == before, "apply must not mutate its input"
        self.check_events(after, events)
        return after, events

    def check_views(self, state: Any) -> None:
        hidden = self.hidden(state)
        for viewer in [*self.seats, SPECTATOR]:
            view = self.engine.view(state, viewer).to_json()
            secrets = _hidden_from(hidden, viewer)
            if not secrets:  # nothing to look for (a finished game's views: Dinocard's hold its whole log)
                continue
            leaked = _mentions(json.dumps(view, sort_keys=True), secrets)
            assert not leaked, f"view of seat {viewer} shows hidden cards {sorted(leaked)}"

    def check_action_json(self, action: Any) -> None:
        raw = json.loads(json.dumps(self.engine.action_to_json(action)))
        assert self.engine.action_from_json(raw) == action, f"action JSON round trip failed for {action!r}"

    def expect_illegal(self, state: Any, player: int, action: Any, before: str | None = None) -> None:
        """`before`: the state's JSON when the caller already wrote it (a step's rejected actions)."""
        before = self.engine.to_json(state) if before is None else before
        with pytest.raises(IllegalAction):
            self.engine.apply(state, player, action)
        assert self.engine.to_json(state) == before, "a rejected action must leave the state unchanged"

    def check_rejections(self, state: Any, legal_by_seat: dict[int, list[Any]], before: str) -> None:
        for seat in self.seats:
            legal = _lookup(legal_by_seat[seat])
            others = [a for a in self.seen.values() if a not in legal]
            if others:
                other = self.rng.choice(others)
                assert not self.engine.is_legal(state, seat, other), f"is_legal accepts the illegal {other!r}"
                self.expect_illegal(state, seat, other, before)

    def check_garbage(self, state: Any, player: int, legal: list[Any], before: str) -> None:
        """Untrusted data from Discord is rejected with InvalidAction, never another exception."""
        for raw in GARBAGE_ACTIONS:
            try:
                parsed = self.engine.action_from_json(raw)
            except InvalidAction:
                continue
            if parsed not in legal:
                self.expect_illegal(state, player, parsed, before)

    def check_events(self, after: Any, events: list[Event]) -> None:
        viewers = [*self.seats, SPECTATOR]
        secrets = {viewer: _hidden_from(self.hidden(after), viewer) for viewer in viewers} if events else {}
        for event in events:
            assert isinstance(event, Event)
            assert isinstance(event.kind, str)
            assert event.kind
            assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
            if event.visible_to is not None:
                assert event.visible_to <= set(self.seats), f"{event.kind}: unknown seats in visible_to"
            blob = json.dumps(dict(event.data), sort_keys=True)
            for viewer in viewers:
                if event.visible(viewer):
                    leaked = _mentions(blob, secrets[viewer])
                    assert not leaked, (
                        f"event {event.kind!r} seen by {viewer} shows hidden cards {sorted(leaked)}"
                    )

    def check_end(self, state: Any, outcome: Outcome) -> None:
        assert set(outcome.winners) <= set(self.seats)
        assert len(outcome.scores) in (0, len(self.seats))
        self.check_views(state)
        for seat in self.seats:
            assert self.engine.legal_actions(state, seat) == []
            for action in list(self.seen.values())[:5]:
                self.expect_illegal(state, seat, action)


# --- the tests -----------------------------------------------------------------------------------------


@pytest.fixture(params=ENGINES, ids=[e.name for e in ENGINES])
def engine(request: pytest.FixtureRequest) -> AnyEngine:
    return request.param


def test_the_toy_engine_is_in_the_list() -> None:
    assert any(isinstance(e, ToyEngine) for e in ENGINES)


def test_engine_declares_the_protocol(engine: AnyEngine) -> None:
    assert isinstance(engine, Engine)
    assert isinstance(engine.name, str)
    assert engine.name
    assert isinstance(engine.max_steps, int)
    assert engine.max_steps >= 0
    setup_error = engine.setup_error
    assert issubclass(setup_error, DomainError), "the setup error is a DomainError"
    assert not issubclass(setup_error, IllegalAction | InvalidAction), "a setup is no action"
    assert not issubclass(InvalidAction, IllegalAction)
    assert not issubclass(IllegalAction, InvalidAction)


IS_LEGAL_SAMPLE = 3


def _action_types(engine: AnyEngine) -> tuple[type, ...]:
    """The members of the union `apply` declares for its action: a typed union, never `Any`."""
    declared = typing.get_type_hints(engine.apply)["action"]
    members = (
        typing.get_args(declared) if typing.get_origin(declared) in (typing.Union, types.UnionType) else ()
    )
    found = members or (declared,)
    assert all(isinstance(t, type) and t is not object for t in found), f"{engine.name}: untyped actions"
    return tuple(t for t in found if isinstance(t, type))


def test_actions_are_a_typed_union(engine: AnyEngine) -> None:
    declared = typing.get_type_hints(engine.apply)["action"]
    assert declared is not Any, f"{engine.name}: apply takes Any"
    assert typing.get_type_hints(engine.action_from_json)["return"] == declared
    assert typing.get_type_hints(engine.is_legal)["action"] == declared
    assert _action_types(engine)


def test_the_catalog_is_required(engine: AnyEngine) -> None:
    """No silent sample catalog: a game plays the cards its caller loaded, or refuses to start."""
    with pytest.raises(engine.setup_error):
        engine.sample_setup(random.Random(1), None)
    with pytest.raises(engine.setup_error):
        engine.sample_setup(random.Random(1), object())
    setup = engine.sample_setup(random.Random(1), _catalog_for(engine))
    assert setup.options.get(CATALOG_OPTION) is _catalog_for(engine)
    without = {k: v for k, v in setup.options.items() if k != CATALOG_OPTION}
    with pytest.raises(engine.setup_error):
        engine.new_game(setup.players, 1, without)


def test_an_invalid_table_raises_the_setup_error(engine: AnyEngine) -> None:
    setup = engine.sample_setup(random.Random(2), _catalog_for(engine))
    first = setup.players[0]
    for players in ((first,), (first, first), (*setup.players, PlayerSetup(seat=7, player_id=9))):
        with pytest.raises(engine.setup_error):
            engine.new_game(players, 2, setup.options)


def test_each_game_package_declares_its_public_api() -> None:
    """Other layers import `engine.<game>` only (an import-linter contract): its `__all__` must hold the
    registered engine and the names its conventions give it."""
    for name, registered in engines_of_packages().items():
        package = importlib.import_module(f"engine.{name}")
        public = set(package.__all__)
        assert all(hasattr(package, item) for item in public), f"engine.{name}: __all__ names a missing item"
        assert "ENGINE" in public, f"engine.{name}: ENGINE is not public"
        assert package.ENGINE is registered, f"engine.{name}: ENGINE is not public"
        assert registered.setup_error.__name__ in public, f"engine.{name}: its setup error is not public"
        assert {t.__name__ for t in _action_types(registered)} <= public, f"engine.{name}: actions not public"


def test_data_that_is_no_action_raises_invalid_action(engine: AnyEngine) -> None:
    for raw in GARBAGE_ACTIONS:
        with pytest.raises(InvalidAction):
            engine.action_from_json(raw)


# Hundreds of fully checked games per engine: a minute or two alone, more on a loaded shared machine.
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_random_games_respect_the_protocol(engine: AnyEngine) -> None:
    ended = 0
    for seed in range(GAMES):
        setup, state = new_game(engine, seed)
        seats = sorted(p.seat for p in setup.players)
        assert seats == list(range(len(seats))), "seats are numbered 0..n-1"
        checker = Checker(engine, seats, seed)
        policy = random_policy(engine, seed, checker.legal)
        game, final = play(engine, seed, policy, state=state, setup=setup, check=checker)
        assert game.outcome is not None
        checker.check_end(final, game.outcome)
        ended += 1
    assert ended == GAMES


def test_same_seed_and_actions_give_the_same_game(engine: AnyEngine) -> None:
    for seed in range(REPLAYED):
        _, first = new_game(engine, seed)
        _, again = new_game(engine, seed)
        assert first == again
        assert engine.to_json(first) == engine.to_json(again)
        original, _ = play(engine, seed, random_policy(engine, seed))
        replayed, _ = play(engine, seed, replay_policy(original.moves))
        assert replayed.events == original.events
        assert replayed.final == original.final
        assert replayed.outcome == original.outcome


def test_a_game_resumed_from_json_ends_the_same(engine: AnyEngine) -> None:
    for seed in range(REPLAYED):
        original, _ = play(engine, seed, random_policy(engine, seed))
        cut = random.Random(seed).randint(0, len(original.moves))
        head, state = play(engine, seed, replay_policy(original.moves), limit=cut)
        restored = engine.from_json(json.loads(json.dumps(engine.to_json(state))))
        assert restored == state
        tail, _ = play(
            engine,
            seed,
            replay_policy(original.moves[cut:]),
            state=restored,
            setup=head.setup,
            steps=cut,
        )
        assert head.events + tail.events == original.events
        assert tail.final == original.final
        assert tail.outcome == original.outcome


def digest(games_per_engine: int = 20) -> dict[str, str]:
    """A fingerprint of seeded games per engine, compared across processes with different hash seeds."""
    result: dict[str, str] = {}
    for eng in ENGINES:
        h = hashlib.sha256()
        for seed in range(games_per_engine):
            game, _ = play(eng, seed, random_policy(eng, seed))
            h.update(game.final.encode())
            h.update(json.dumps(game.events, sort_keys=True).encode())
        result[eng.name] = h.hexdigest()
    return result


def test_games_do_not_depend_on_the_hash_seed() -> None:
    """Iterating a set of strings depends on PYTHONHASHSEED; a game resumed after a restart must not."""
    root = Path(__file__).resolve().parents[2]
    code = "import json, tests.engine.test_conformance as t; print(json.dumps(t.digest()))"
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert outputs[0] == outputs[1]


def test_every_engine_package_is_a_games_engine() -> None:
    """Services reach engines through GameSpec (`GameRegistry.engines()`): each engine package's `ENGINE`
    is the very object its game declares, and no engine package is left without a game."""
    declared = every_game().engines()
    found = engines_of_packages()
    assert sorted(declared) == sorted(found)
    for name, engine in found.items():
        assert declared[name] is engine, f"engine.{name}: its game declares another object"


# --- the registry itself ---------------------------------------------------------------------------------


def test_engine_registries_accept_an_engine_once_and_reject_impostors() -> None:
    toy = ToyEngine()
    registry = EngineRegistry([toy, toy])  # the same object twice is harmless
    assert registry["toy"] is toy
    assert "toy" not in EngineRegistry()  # another registry does not see it
    with pytest.raises(ValueError, match="registered twice"):
        EngineRegistry([toy, ToyEngine()])
    with pytest.raises(TypeError):
        EngineRegistry([object()])  # type: ignore[list-item]


def _toy_start(toy: ToyEngine, seed: int) -> Any:
    players = ToyEngine().sample_setup(random.Random(seed), TOY_CATALOG).players
    return toy.new_game(players, seed, {"turns": 6, CATALOG_OPTION: TOY_CATALOG})


def test_the_checker_catches_a_leaking_view() -> None:
    """The conformance checks must fail on a broken engine, or they prove nothing."""

    class LeakyView(GameView):
        hands: tuple[tuple[str, ...], ...]

    class Leaky(ToyEngine):
        def view(self, state: Any, player: int) -> Any:
            return LeakyView(hands=tuple(tuple(h) for h in state.hands))

    leaky = Leaky()
    with pytest.raises(AssertionError, match="hidden cards"):
        Checker(leaky, [0, 1], 1).check_views(_toy_start(leaky, 1))


def test_the_checker_catches_a_public_draw() -> None:
    toy = ToyEngine()
    state = _toy_start(toy, 3)
    seat = toy.current_players(state)[0]
    after, events = toy.apply(state, seat, Play(state.hands[seat][0]))
    drawn = next(e for e in events if e.kind == "drew")
    Checker(toy, [0, 1], 3).check_events(after, events)  # private: fine
    with pytest.raises(AssertionError, match="hidden cards"):
        Checker(toy, [0, 1], 3).check_events(after, [Event("drew", drawn.data)])


def test_the_checker_catches_a_mutating_apply() -> None:
    class Mutating(ToyEngine):
        def apply(self, state: Any, player: int, action: ToyAction) -> Any:
            result = super().apply(state, player, action)
            object.__setattr__(state, "turn", state.turn + 100)
            return result

    mutating = Mutating()
    state = _toy_start(mutating, 3)
    seat = mutating.current_players(state)[0]
    with pytest.raises(AssertionError, match="mutate"):
        Checker(mutating, [0, 1], 3)(state, seat, Play(state.hands[seat][0]))


# --- shared value types and the random stream ------------------------------------------------------------
