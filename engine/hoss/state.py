"""The serializable battle, as it stands at a decision point (between two rounds).

These frozen models exist only where the platform needs a value it can store and compare: between two
decisions. The simulation itself runs on the mutable objects of `fighters.py` (see `convert.py` for the
exact, lossless translation both ways). Everything is an integer or a string: PV amounts in hundredths
(centi-PV), chances in basis points, times in battle milliseconds (round r covers [5000 (r-1), 5000 r)).

The card stats the battle uses are copied in (`cards`), so a catalog edit never changes a battle in
progress and `from_json` needs nothing but the text.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from engine.hoss.bonus import MAX_STARS, copy_bonus_pm
from engine.hoss.catalog import BuffEffect, CreatureClass, Element, Race, Rarity, Status
from engine.protocol import GameState
from engine.rng import RngState


class CardSpec(GameState):
    """One creature card's numbers as the battle uses them (catalog floats turned into ints)."""

    id: str
    line: str
    race: Race
    cls: CreatureClass
    rank: int = Field(ge=1, le=3)
    parent: str | None = None
    pv: int
    atk: int
    interval_ms: int
    crit_bp: int = 0
    crit_damage_bp: int = 0
    dodge_bp: int = 0
    reduction_bp: int = 0
    block_bp: int = 0
    statuses: tuple[tuple[Status, int], ...] = ()  # (status, chance bp), in the rules' status order
    elements: tuple[Element, ...] = ()
    heal_bp: int = 0
    deflect_bp: int = 0


class CopySpec(GameState):
    """The copy of a card that a line uses: the best one its owner has."""

    card: str
    rarity: Rarity
    stars: int = Field(ge=0, le=MAX_STARS)
    holo: bool = False

    @property
    def bonus_pm(self) -> int:
        return copy_bonus_pm(self.rarity, self.stars, self.holo)


class LineSpec(GameState):
    """A deck line: its Rang 1 and the owned Rang 2 / Maître copies (missing ranks simply stop the line)."""

    line: str
    r1: CopySpec
    r2: tuple[CopySpec, ...] = ()
    r3: tuple[CopySpec, ...] = ()


class BuffSpec(GameState):
    card: str
    effect: BuffEffect
    power_bp: int
    rarity: Rarity
    stars: int = Field(ge=0, le=MAX_STARS)
    holo: bool = False

    @property
    def bonus_pm(self) -> int:
        return copy_bonus_pm(self.rarity, self.stars, self.holo)


class DeckSpec(GameState):
    """A validated player setup (see `deck.parse_setup`): what a seat brings to the battle."""

    player_id: int
    lines: tuple[LineSpec, ...]
    buffs: tuple[BuffSpec, ...]


class FighterState(GameState):
    """A creature in play. Stats are not stored: they follow from the card, copy, synergy and buffs."""

    uid: str
    card: str
    damage: int = 0  # centi-PV taken so far (kept through evolution)
    shield: int = 0
    poison: int = 0  # total stack value, centi-PV per tick
    bleed: int = 0
    bleed_next: int = 0  # battle ms of the next tick (0 = not bleeding)
    burn: int = 0
    burn_next: int = 0
    burn_crit_bp: int = 0  # crit chance and multiplier of the creature that lit the latest stack
    burn_mult_bp: int = 0
    bris_bp: int = 0
    gel_bp: int = 0
    frozen: bool = False
    shock_until: int = 0
    confused: bool = False
    next_hit: int = -1  # battle ms of its next hit in the round; -1: none (Défenseur); each round restarts it
    cycle_start: int = 0  # battle ms its attack cycle began: round start, last hit, shock's end, thaw
    protege: str | None = None  # Défenseurs: the creature they guard
    revived: bool = False


class Step(GameState):
    """One decision a seat owes at a pause, in the order they are asked.

    `path`: choose the Rang 2 card (`options`) of creature `subject`; `place`: choose the protégé
    (`options`) of Défenseur `subject`; `orders`: play one card (`plays`: hand card, protégé or None),
    or pass. `moves` (Défenseur, new protégé) sits on the orders step but is offered at every step of
    the pause (`actions.moves_of`), each Défenseur at most once.
    """

    kind: Literal["path", "place", "orders"]
    subject: str = ""
    options: tuple[str, ...] = ()
    plays: tuple[tuple[str, str | None], ...] = ()
    moves: tuple[tuple[str, str], ...] = ()


Answer = tuple[str, str, str]  # (kind, first id, second id or ""), see actions.answer_of


class SeatState(GameState):
    deck: DeckSpec
    hand: tuple[str, ...]
    pile: tuple[str, ...]
    fighters: tuple[FighterState, ...] = ()  # in play order
    steps: tuple[Step, ...] = ()
    answers: tuple[Answer, ...] = ()  # secret until every seat is done


class DeflectionState(GameState):
    """A deflected hit in flight: it lands on a random creature of seat `seat` at battle time `time`."""

    time: int
    seat: int
    damage: int
    source: str


class HossState(GameState):
    # `finished` is written "over" in JSON, its name before every engine's state shared one flag: stored
    # battles and the golden playthroughs keep the same text.
    model_config = ConfigDict(
        frozen=True, extra="forbid", validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )

    rng: RngState
    round: int = 0  # rounds played (the round in progress when the battle ended mid-round)
    cards: tuple[CardSpec, ...]
    seats: tuple[SeatState, SeatState]
    deflections: tuple[DeflectionState, ...] = ()
    move_pauses: bool = False  # table option: a possible Défenseur move pauses the battle by itself
    finished: bool = Field(default=False, alias="over")
    winners: tuple[int, ...] = ()
    reason: str = ""
    scores: tuple[int, ...] = ()
