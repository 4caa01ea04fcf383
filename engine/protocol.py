"""The one contract every game engine honours, so services, cogs and one conformance test serve them all.

Modelled on OpenSpiel's State API (current players, legal actions, apply, terminal, returns, a per-player
observation) and on python-chess (a state is a pure value; moves are small value objects; legality is
checked at the edge). See docs/engine.md for the conventions game authors follow.

Decisions shared by every engine:

- A state is an immutable value: `apply` returns a new state and never mutates its input. We recommend
  frozen pydantic models (`GameState`) with tuples instead of lists, because they give an exact JSON
  round trip (`model_dump_json` / `model_validate_json`) and validate what comes back from the database.
- All chance comes from an `engine.rng.RngState` stored in the state (seed + counter scheme), never from
  the module-level `random`, the clock or the hash seed. Same seed + same actions = same game.
- Several seats may have to act at once (`current_players` returns all of them): simultaneous secret
  choices are pending until every seat has acted. There is no chance "player": chance is resolved inside
  `apply` (or `new_game`) from the state's generator.
- Two errors, both `DomainError`s: data that is no action of the game (malformed JSON, an unknown kind)
  raises `InvalidAction` from `action_from_json`; an action the rules refuse in the state, or from a seat
  that need not act, raises `IllegalAction` from `apply`. The state is untouched because states are
  immutable. An invalid setup raises the engine's one `setup_error`.
- One end flag: every state has `finished`, true exactly when `outcome` is not `None`.
- A required catalog: `new_game` and `sample_setup` refuse a missing one (no sample catalog behind the
  caller's back), so a game always plays the cards the caller loaded.
- Views are typed: a frozen `GameView` model per game, turned into JSON by its one `to_json`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict

from engine.errors import DomainError

# The seat passed to `view` for a public observation: what a channel or a spectator may see.
SPECTATOR = -1

# The key under which services pass the game's loaded catalog to `new_game` (see docs/engine.md).
CATALOG_OPTION = "catalog"


class GameState(BaseModel):
    """Recommended base for states: immutable, no unknown fields, exact JSON round trip.

    Use tuples, not lists or dicts, for collections so the value is immutable all the way down and
    comparable with `==`. Avoid floats (store integers: percentages, hundredths) so equality after a
    round trip is never in doubt.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")


class GameView(BaseModel):
    """Base for a game's typed view: renderers read attributes that mypy checks, not string keys.

    Frozen like states; `to_json` is the one way to JSON (what the conformance test scans for hidden ids).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


@dataclass(frozen=True)
class PlayerSetup:
    """Who sits where and with which cards; everything `new_game` needs to know about one player.

    `deck` holds catalog card ids (a card owned twice appears twice). Per-copy details (rarity, stars,
    levels...) and per-player choices go in `extra`, keyed as the game documents.
    """

    seat: int
    player_id: int
    deck: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Setup:
    """A complete valid way to start a game: what `Engine.sample_setup` returns for tests and the sandbox."""

    players: tuple[PlayerSetup, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Event:
    """Something that happened during `apply`, for services to narrate; the engine never talks to Discord.

    `data` must be JSON-able. `visible_to=None` means public; an event that names a card hidden from some
    seat (a draw, a secret choice) must list only the seats allowed to see it — the conformance test
    checks this against `Engine.hidden_cards`. Renderers look up the message `<game>.event.<kind>`.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None

    def visible(self, seat: int) -> bool:
        """Whether `seat` may see this event; `SPECTATOR` sees only public events."""
        return self.visible_to is None or seat in self.visible_to

    def to_json(self) -> dict[str, Any]:
        """Events are stored in the outbox before being delivered, so they travel as plain data."""
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
        }

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Event:
        visible = raw.get("visible_to")
        return Event(
            kind=str(raw["kind"]),
            data=dict(raw.get("data") or {}),
            visible_to=None if visible is None else frozenset(int(s) for s in visible),
        )


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. A draw has no winners; otherwise there is at least one winner.

    `scores` is indexed by seat when the game has a score (points, remaining life...), else empty.
    `reason` is a message key such as `"pillz.outcome.ko"` so the result can be explained.
    """

    winners: tuple[int, ...] = ()
    draw: bool = False
    scores: tuple[int, ...] = ()
    reason: str = ""

    def __post_init__(self) -> None:
        if self.draw and self.winners:
            raise ValueError("a draw has no winners")
        if not self.draw and not self.winners:
            raise ValueError("an outcome that is not a draw needs at least one winner")
        if len(set(self.winners)) != len(self.winners):
            raise ValueError("a seat cannot win twice")

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "scores": list(self.scores),
            "reason": self.reason,
        }

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Outcome:
        return Outcome(
            winners=tuple(int(s) for s in raw.get("winners", ())),
            draw=bool(raw.get("draw", False)),
            scores=tuple(int(s) for s in raw.get("scores", ())),
            reason=str(raw.get("reason", "")),
        )


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Engine(Protocol[S, A]):
    """The rules of one game as pure functions over immutable states `S` and actions `A`.

    An engine object holds no game data: one instance serves every table. Actions must compare with
    `==` (frozen dataclasses or pydantic models), so `action in legal_actions(...)` is the legality test.
    """

    name: ClassVar[str]
    # The one `DomainError` subclass `new_game` and `sample_setup` raise for every invalid setup.
    setup_error: ClassVar[type[DomainError]]
    # Upper bound on the number of `apply` calls in any game; the conformance test fails a longer game.
    max_steps: ClassVar[int]

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> S:
        """The initial state; raises `setup_error` for an invalid setup (deck too small, wrong seat count,
        no catalog under `CATALOG_OPTION`).

        Chance at start (shuffles, who begins) is resolved here from `seed`. Copy the catalog stats the
        game needs into the state, so a catalog edit never changes a game in progress.
        """
        ...

    def current_players(self, state: S) -> list[int]:
        """Seats that must act now, in seat order; several for simultaneous choices; `[]` once over."""
        ...

    def legal_actions(self, state: S, player: int) -> list[A]:
        """Every action `player` may take now, in a deterministic order; `[]` if they need not act."""
        ...

    def is_legal(self, state: S, player: int, action: A) -> bool:
        """`action in legal_actions(state, player)`, possibly without building the list."""
        ...

    def apply(self, state: S, player: int, action: A) -> tuple[S, list[Event]]:
        """The state after `player` takes `action`, and what happened; raises `IllegalAction`."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or `None` while it goes on."""
        ...

    def view(self, state: S, player: int) -> GameView:
        """The observation of `player` (or `SPECTATOR`): everything they may know, nothing more."""
        ...

    def hidden_cards(self, state: S, player: int) -> set[str]:
        """Identifiers that only `player` may see now: their hand, their pending secret choice...

        The conformance test checks that no other seat's view or event contains any of them, so they
        must be unique in the game (instance ids such as "c12", not catalog ids shared by two copies).
        """
        ...

    def to_json(self, state: S) -> str:
        """The state as JSON text; `from_json(to_json(s)) == s` exactly."""
        ...

    def from_json(self, raw: str) -> S: ...

    def action_to_json(self, action: A) -> Any:
        """Actions cross the Discord boundary (buttons, selects) and the database as plain JSON data."""
        ...

    def action_from_json(self, raw: Any) -> A:
        """Parse untrusted data; raises `InvalidAction` when it is not an action of this game."""
        ...

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        """A random valid setup (seats, decks, options) for the conformance test, benchmarks and sandbox.

        `catalog` is the game's loaded catalog; draw decks from it. A missing or foreign catalog raises
        `setup_error`.
        """
        ...
