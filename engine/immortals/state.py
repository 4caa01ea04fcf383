"""Immortal's War duel state and its one action: immutable values, so a stored duel resumes exactly.

A duel is four rounds. In each round the engaging seat chooses first (`Choose`: a unit that has not
fought yet and, optionally, a spell not cast yet); its choice is public at once, and the other seat then
counters with its own choice, knowing it; the round resolves on the counter. The engaging seat's choice
waits in `pending` until then (see `view.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar

from pydantic import ConfigDict

from engine.immortals.catalog import Effect
from engine.protocol import GameState
from engine.rng import RngState

ROUNDS = 4
UNITS_DRAWN = 4
SPELLS_DRAWN = 8
START_VITALITY = 30
UNIT_HP = 20
TURNS = 20

T = TypeVar("T")
_set = object.__setattr__

# The values inside a state (units, spells, fights) are frozen dataclasses, not pydantic models: the
# engine builds them from validated data and reads their fields in its hot paths, where a pydantic
# model's attribute read costs three times a dataclass's. Pydantic validates them with the state that
# holds them (`from_json`), with this configuration, and writes the same JSON.
_VALUE = ConfigDict(extra="forbid")


def built(cls: type[T], fields: dict[str, Any]) -> T:
    """A new frozen dataclass of `cls` with `fields` (every field, of its declared type), computed by the
    engine from validated data.

    What the generated `__init__` ends with, at a quarter of its cost: a frozen dataclass's `__init__`
    sets each field through `object.__setattr__` (13 calls for a `Unit`), and a duel builds some thirty
    values. `tests/engine/immortals/test_values.py` checks that each kind equals its constructed twin,
    and the conformance test's round trip (`from_json(to_json(s)) == s`) fails on a wrong type."""
    value = object.__new__(cls)
    _set(value, "__dict__", fields)
    return value


def evolve(state: ImmortalsState, update: dict[str, Any]) -> ImmortalsState:
    """`state.model_copy(update=update)`, which validates nothing either, at 60 % of its cost (a move
    makes one copy): the attributes `model_construct` sets, without its loop over the fields.
    `update` holds values of the declared types."""
    fields = {**state.__dict__, **update}
    value = object.__new__(ImmortalsState)
    _set(value, "__dict__", fields)
    _set(value, "__pydantic_fields_set__", set(fields))
    _set(value, "__pydantic_extra__", None)
    _set(value, "__pydantic_private__", None)
    return value


@dataclass(frozen=True)
class Unit:
    """A drawn unit with the stats it fights with before terrain and spells (level, family and card
    bonuses included). `uid` is its instance id in this duel ("u0-2"); `deck_index` says which copy of
    the deck it is, so a service credits its experience to the right card."""

    __pydantic_config__ = _VALUE

    uid: str
    card_id: str
    deck_index: int
    family: str
    terrain: str
    level: int
    attack: int
    defense: int
    damage: int = 0
    hp: int = UNIT_HP
    armor: int = 0
    regen: int = 0
    family_bonus: bool = False  # its family's bonus is in the numbers above


@dataclass(frozen=True)
class SpellCard:
    """A drawn spell, its effects copied from the catalog; `sid` ("s1-5") is hidden from the other seat
    until it is cast. Which units fought and which spells were cast is read from the history (`fought`,
    `cast`), the one record of it."""

    __pydantic_config__ = _VALUE

    sid: str
    spell_id: str
    effects: tuple[Effect, ...]
    terrain: str | None = None
    family: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Choose:
    """A seat's choice for the round: a unit (instance id) and maybe a spell (instance id), sent to
    attack when the seat engages, to counter when it answers.

    A frozen dataclass like other games' actions (docs/engine.md): a player's click builds one without a
    validation, and `action_from_json` checks what comes from outside. Pydantic validates it inside a
    state (`pending`) with the same rules as the state's other values (`extra="forbid"`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    kind: Literal["choose"] = "choose"
    unit: str
    spell: str | None = None


# Every action of the game: a duel has one kind of move.
ImmortalsAction: TypeAlias = Choose


@dataclass(frozen=True)
class Fighter:
    """One side of a resolved fight, with the numbers it fought with (terrain and spells applied)."""

    __pydantic_config__ = _VALUE

    uid: str
    card_id: str
    spell: str | None  # catalog id of the spell cast, public once the round resolves
    spell_sid: str | None
    spell_acted: bool  # False when a terrain or family condition left the spell without effect
    terrain_mod: int  # +1 favourite terrain, -1 malus terrain, 0 otherwise
    attack: int
    defense: int
    hp: int  # at the start of the fight
    armor: int
    regen: int
    power: int  # what it deals to the player if it wins (terrain excluded)
    healed: int  # vitality its player regained from the spell


@dataclass(frozen=True)
class FightRecord:
    """A resolved round, public: both fighters, who struck first, HP after each turn, winner, damage."""

    __pydantic_config__ = _VALUE

    round: int
    fighters: tuple[Fighter, Fighter]  # by seat
    initiative: int  # the seat whose unit struck first
    trace: tuple[tuple[int, int], ...]  # HP by seat after each turn played (a KO ends the list)
    winner: int | None  # None: equal HP after 20 turns, a drawn fight
    damage: int
    vitality: tuple[int, int]  # after the round


class ImmortalsState(GameState):
    player_ids: tuple[int, int]
    terrain: str
    engager: int  # the seat whose drawn units' total Attack is higher; wins initiative ties
    engage_totals: tuple[int, int]
    units: tuple[tuple[Unit, ...], tuple[Unit, ...]]
    spells: tuple[tuple[SpellCard, ...], tuple[SpellCard, ...]]
    vitality: tuple[int, int] = (START_VITALITY, START_VITALITY)
    round: int = 1
    # By seat. The engaging seat's choice waits here, public, for the counter. A duel stored before the
    # rounds were played in turn may hold the other seat's secret choice instead (see `seat_to_act`).
    pending: tuple[Choose | None, Choose | None] = (None, None)
    rng: RngState
    history: tuple[FightRecord, ...] = ()
    finished: bool = False
    winner: int | None = None
    reason: Literal["ko", "vitality", "draw"] | None = None


def seat_to_act(state: ImmortalsState) -> int | None:
    """The seat whose choice the round waits for: the engaging seat, then the other, which counters.

    A duel stored when both seats chose at once may hold the counter's secret choice with the engaging
    seat still to choose: the engaging seat acts, and its choice resolves the round as before."""
    if state.finished:
        return None
    engager = state.engager
    return engager if state.pending[engager] is None else 1 - engager


def engaged(state: ImmortalsState) -> Choose | None:
    """The engaging seat's choice of this round while it waits for the counter: public."""
    return None if state.finished else state.pending[state.engager]


def fought(state: ImmortalsState, seat: int) -> frozenset[str]:
    """The units of `seat` that have fought (instance ids)."""
    return frozenset(r.fighters[seat].uid for r in state.history)


def cast(state: ImmortalsState, seat: int) -> frozenset[str]:
    """The spells of `seat` that have been cast (instance ids)."""
    return frozenset(sid for r in state.history if (sid := r.fighters[seat].spell_sid) is not None)


def units_left(state: ImmortalsState, seat: int) -> list[Unit]:
    done = fought(state, seat)
    return [u for u in state.units[seat] if u.uid not in done]


def spells_left(state: ImmortalsState, seat: int) -> list[SpellCard]:
    done = cast(state, seat)
    return [s for s in state.spells[seat] if s.sid not in done]
