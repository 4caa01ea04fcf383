"""Chocobataille's state and actions: immutable values, so a stored game resumes and replays exactly.

Every physical card is an instance (`"c12"`) carrying the catalog stats copied at `new_game`, so a catalog
edit never changes a game in progress and two copies of one card stay distinguishable (hidden hands).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine.choco.catalog import Effect
from engine.protocol import GameState
from engine.rng import RngState

Line = Literal["front", "reserve"]
LINES: tuple[Line, ...] = ("front", "reserve")
# The rules never give the number of slots per line; we choose 5 on each (docs/choco/rules-notes.md).
SLOTS_PER_LINE = 5
DECK_SIZE = 24
MAX_COPIES = 2
HAND_TARGET = 5
HAND_LIMIT = 8
# Phases of a turn, in the rulebook's order (IV.2): summon, pure effects, moves, attacks, discards.
SUMMON, EFFECTS, MOVES, ATTACKS, DISCARDS = 0, 1, 2, 3, 4

M = TypeVar("M", bound=BaseModel)
_new = object.__new__
_set = object.__setattr__


def evolve(model: M, update: Mapping[str, Any]) -> M:
    """`model.model_copy(update=update)` for the frozen values below, which hold no private attribute
    and no extra field: the same four attributes (the fields, the fields set, no extra, no private),
    without pydantic's generic `__copy__` (three `copy.copy` calls and its checks). A turn makes some
    twenty-five copies (the side, the progress, the state, a hurt card), the larger part of the engine's
    time for a turn (issue 39). Like `model_copy`, it validates nothing: `update` holds values of the
    declared types."""
    copied = _new(type(model))
    _set(copied, "__dict__", {**model.__dict__, **update})
    _set(copied, "__pydantic_fields_set__", model.__pydantic_fields_set__.union(update))
    _set(copied, "__pydantic_extra__", None)
    _set(copied, "__pydantic_private__", None)
    return copied


class Card(BaseModel):
    """One copy in play: instance id, catalog id and its current PA / PV (damage persists everywhere)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    uid: str
    card_id: str
    pa: int
    pv: int
    max_pv: int
    pure: bool = False  # a pure effect card: no PA / PV, never on the board
    base_pa: int | None = None  # catalog stats, given back by `recall`
    base_pv: int | None = None


class Side(BaseModel):
    """One player's cards: pioche (hidden from all), hand (hidden from the opponent), lines, graveyard."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pioche: tuple[Card, ...]
    hand: tuple[Card, ...] = ()
    front: tuple[Card, ...] = ()
    reserve: tuple[Card, ...] = ()
    graveyard: tuple[Card, ...] = ()

    def board(self) -> tuple[Card, ...]:
        return self.front + self.reserve

    def alive(self) -> int:
        """Cards with PA and PV not yet in the graveyard: the game ends when one side reaches 0 (IV.4)."""
        return sum(not c.pure for c in self.pioche + self.hand) + len(self.front) + len(self.reserve)

    def has_wizard(self) -> bool:
        """`alive() > 0`, stopping at the first wizard found: the end check after every step of a turn
        asks only this, where counting went through the whole pioche and hand of both sides each time."""
        return bool(self.front or self.reserve) or any(not c.pure for c in self.hand + self.pioche)


class TurnProgress(BaseModel):
    """What the player to act has done so far this turn; it limits what they may still do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    phase: int = SUMMON
    summons_allowed: int = 1
    summoned: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()
    attacked: tuple[str, ...] = ()
    deck_attacks: int = 0
    effects_played: int = 0  # pure effects played from the hand this turn (at most two)
    extra_summons: int = 0  # granted by `extra_summon` steps this turn


class Timed(BaseModel):
    """A `modify` with `turns`, a `protect` or a `stun` on one wizard, counted in its owner's ends of turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: int
    uid: str
    kind: Literal["modify", "protect", "stun"]
    left: int
    turn: int  # the turn it was applied: that turn's end does not count
    pa: int = 0
    pv: int = 0
    # The card whose effect applied it: the panel names the effect, not the mechanic. None in games stored
    # before it was recorded.
    card_id: str | None = None


class Active(BaseModel):
    """A continuous effect wizard on the board, or a pure effect that stays (`card` holds it meanwhile)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: int
    uid: str
    card_id: str
    left: int | None
    turn: int
    card: Card | None = None


class ChocoState(GameState):
    """The whole game. `prepared[s]` holds seat s's secret first placement during the preparatory turn."""

    sides: tuple[Side, Side]
    player_ids: tuple[int, int]
    rng: RngState
    turn: int = 0  # 0 = preparatory turn
    active: int = -1
    progress: TurnProgress = TurnProgress()
    prepared: tuple[tuple[str, Line] | None, tuple[str, Line] | None] = (None, None)
    max_turns: int = 200
    finished: bool = False
    winner: int | None = None
    bonus_draws: tuple[int, int] = (0, 0)  # extra cards at the next draw (fault V.1)
    passes: tuple[int, int] = (0, 0)  # turns passed for inactivity (V.2)
    forfeit: Literal["voluntary", "absence"] | None = None
    # Per seat, cards sent to the graveyard outside combat (the inactivity penalty, a voluntary discard):
    # the leaderboard counts cards lost in combat only (VI.4).
    spared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    effects: dict[str, Effect] = Field(
        default_factory=dict
    )  # the effects of the cards in play, copied from the catalog at new_game
    timed: tuple[Timed, ...] = ()
    actives: tuple[Active, ...] = ()

    def spare(self, seat: int, uid: str) -> ChocoState:
        """Mark a card of `seat` as gone to the graveyard outside combat."""
        spared = list(self.spared)
        spared[seat] = (*spared[seat], uid)
        return evolve(self, {"spared": (spared[0], spared[1])})

    def combat_losses(self, seat: int) -> int:
        """VI.4's "cartes perdues au combat": wizards of `seat` in the graveyard, except those the
        inactivity penalty destroyed or their owner discarded."""
        return sum(not c.pure and c.uid not in self.spared[seat] for c in self.sides[seat].graveyard)


# --- actions: one step of a turn, or the whole turn at once --------------------------------------------


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Prepare(_Action):
    """Preparatory turn: the secret first placement of one card from the hand."""

    kind: Literal["prepare"] = "prepare"
    card: str
    line: Line


class Summon(_Action):
    """`targets`/`recall`: the owner's choices for an effect wizard's effect (see PlayEffect)."""

    kind: Literal["summon"] = "summon"
    card: str
    line: Line
    targets: tuple[str, ...] = ()
    recall: tuple[str, ...] = ()


class PlayEffect(_Action):
    """Play a pure effect from the hand (action 3). `targets` gives one wizard per distinct chosen target
    (`ally`, `enemy`) in the order they first appear in the steps; `recall` the graveyard cards taken back.
    A choice left out is drawn at random (rules-notes.md)."""

    kind: Literal["play_effect"] = "play_effect"
    card: str
    targets: tuple[str, ...] = ()
    recall: tuple[str, ...] = ()


class Move(_Action):
    kind: Literal["move"] = "move"
    card: str
    line: Line


class Attack(_Action):
    kind: Literal["attack"] = "attack"
    attacker: str
    target: str


class DeckAttack(_Action):
    kind: Literal["deck_attack"] = "deck_attack"
    attacker: str


class Discard(_Action):
    kind: Literal["discard"] = "discard"
    card: str


class EndTurn(_Action):
    kind: Literal["end"] = "end"


Step = Summon | PlayEffect | Move | Attack | DeckAttack | Discard


class Turn(_Action):
    """A whole declared turn, validated at once: its steps in order, then the end of the turn."""

    kind: Literal["turn"] = "turn"
    steps: tuple[Summon | PlayEffect | Move | Attack | DeckAttack | Discard, ...]


# Every action of the game: what `legal_actions` lists, and `Turn`, a whole turn declared at once.
ChocoAction: TypeAlias = Prepare | Summon | PlayEffect | Move | Attack | DeckAttack | Discard | EndTurn | Turn
