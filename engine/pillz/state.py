"""Pillz duel state and actions: immutable values, so a stored duel resumes and replays exactly.

A duel is four rounds. In each round the leading seat plays first (`Play`: a character, shown at once,
and pillz, hidden until the round resolves), then the other seat answers; the round then resolves.
The first player leads rounds 1 and 3, the other rounds 2 and 4 (rules: "Qui débute le combat?").
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict

from engine.protocol import GameState
from engine.rng import RngState

START_LIFE = 12
START_PILLZ = 12
ROUNDS = 4
HAND_SIZE = 4


class Fighter(BaseModel):
    """One of a seat's four drawn characters, with the stats it fights with (leader bonuses applied)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    card_id: str
    stars: int
    power: int
    damage: int
    clan: str
    ability: str | None = None  # ability kind, None without one (a leader's acts for the whole duel)
    value: int = 0
    used: bool = False


class EffectRecord(BaseModel):
    """An ability that changed a round's numbers, by how much, or that an Entrave cancelled.

    Kept in the round's record so every number a player sees can be traced to its cause: `amount` is what
    the ability actually changed (power for Furie, damage for Coup précis, Armure and Bénédiction, PV
    healed, pillz refunded by Réserve or Trésor de guerre, or drained), after the caps (max life, not
    below 0); 0 when `cancelled`. A leader's ability names the leader, which need not fight that round.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int  # the seat whose character (or drawn leader) has the ability
    card: str
    kind: str
    amount: int
    cancelled: bool = False


class RoundRecord(BaseModel):
    """A resolved round, public once resolved: both characters, both pillz, attacks, winner, damage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    leader: int  # the seat that played first
    cards: tuple[str, str]  # by seat
    pillz: tuple[int, int]
    attacks: tuple[int, int]
    winner: int
    damage: int
    life: tuple[int, int]  # after the round
    pillz_left: tuple[int, int]
    effects: tuple[EffectRecord, ...] = ()  # abilities that acted or were cancelled, by seat


class PillzState(GameState):
    player_ids: tuple[int, int]
    hands: tuple[tuple[Fighter, ...], tuple[Fighter, ...]]
    life: tuple[int, int] = (START_LIFE, START_LIFE)
    # The healing cap: 12 in every duel this version starts (no ability changes the start any more).
    # Kept because duels stored by the previous version carry it (the state forbids unknown fields) and a
    # few of them started above 12 PV: they keep healing up to their own start.
    max_life: tuple[int, int] = (START_LIFE, START_LIFE)
    pillz: tuple[int, int] = (START_PILLZ, START_PILLZ)
    first: int = 0  # leads rounds 1 and 3
    round: int = 1
    pending: tuple[str, int] | None = None  # the leader's (card, pillz) this round: the card is public
    rng: RngState
    history: tuple[RoundRecord, ...] = ()
    finished: bool = False
    winner: int | None = None
    reason: Literal["ko", "points", "draw", "forfeit"] | None = None


class Play(BaseModel):
    """A seat's move in a round: one unused character and 0..pillz left pillz."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["play"] = "play"
    card: str
    pillz: int


# Every action of the game: a duel has one kind of move.
PillzAction: TypeAlias = Play
