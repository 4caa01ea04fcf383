"""What one seat (or a spectator) may see of a battle, as typed frozen models that services read by attribute.

Both sides' creatures, piles and buffs are public; a seat's own view adds its hand, its lines, its legal
actions and the answers it already gave at this pause (secret until every seat has decided). Actions stay
the engine's value objects (`actions.py`); only `to_json` turns them into their JSON form.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import PlainSerializer

from engine.hoss import actions
from engine.hoss.actions import HossAction
from engine.hoss.bonus import buff_strength_bp
from engine.hoss.catalog import RACES, BuffEffect, Rarity
from engine.hoss.fighters import Fighter, Side
from engine.hoss.log import statuses_of
from engine.hoss.rules import MAX_ROUNDS, ROUND_MS
from engine.hoss.state import BuffSpec, HossState, SeatState
from engine.protocol import SPECTATOR, GameView

# An action in a view: the value object itself, written as the action's JSON by `to_json`.
ActionField = Annotated[HossAction, PlainSerializer(actions.to_json, return_type=dict[str, Any])]


class CreatureView(GameView):
    """A creature in play. `statuses` pairs each active marker with its amount (stack totals in centi-PV
    or basis points, Choc's remaining ms, 1 for Confusion), in the log's order."""

    uid: str
    card: str
    rank: int
    hp: int  # hundredths of PV
    hp_max: int
    shield: int = 0
    defender: bool = False
    protege: str | None = None  # the uid a Défenseur guards (None: nobody yet)
    statuses: tuple[tuple[str, int], ...] = ()
    revived: bool = False
    evolving: tuple[str, ...] = ()  # the Rang 2 cards it may become, while its path is being chosen

    @staticmethod
    def of(f: Fighter, now: int) -> CreatureView:
        return CreatureView(
            uid=f.uid,
            card=f.card.id,
            rank=f.card.rank,
            hp=max(0, f.hp),
            hp_max=f.max_hp,
            shield=f.shield,
            defender=f.is_def,
            protege=f.protege.uid if f.is_def and f.protege is not None else None,
            statuses=tuple((name, int(amount)) for name, amount in statuses_of(f, now).items()),
            revived=f.revived,
            evolving=tuple(f.path_options),
        )


class BuffView(GameView):
    card: str
    effect: BuffEffect
    rarity: Rarity
    stars: int
    holo: bool
    strength_bp: int

    @staticmethod
    def of(b: BuffSpec) -> BuffView:
        return BuffView(
            card=b.card,
            effect=b.effect,
            rarity=b.rarity,
            stars=b.stars,
            holo=b.holo,
            strength_bp=buff_strength_bp(b.power_bp, b.bonus_pm),
        )


class HandCardView(GameView):
    id: str  # the instance id ("a1".."b6"), one of the hidden cards
    card: str


class SeatView(GameView):
    """One side. The fields after `waiting` are the seat's own: `None` in anyone else's view."""

    seat: int
    player_id: int
    hand: int  # how many cards: the cards themselves are the seat's secret
    pile: int
    synergy: tuple[tuple[str, int], ...]  # (race, basis points), races with a bonus only
    creatures: tuple[CreatureView, ...]
    buffs: tuple[BuffView, ...]
    waiting: bool  # the seat still owes a decision at this pause
    hand_cards: tuple[HandCardView, ...] | None = None
    lines: tuple[tuple[str, ...], ...] | None = None  # each deck line's cards, Rang 1 first
    legal: tuple[ActionField, ...] | None = None
    answers: tuple[ActionField, ...] | None = None


class HossView(GameView):
    you: int | None  # the seat viewing, None for a spectator
    round: int
    max_rounds: int
    finished: bool
    seats: tuple[SeatView, SeatView]
    winners: tuple[int, ...] = ()
    reason: str = ""  # the outcome's message key, once finished
    scores: tuple[int, ...] = ()


def seat_view(side: Side, seat: SeatState, now: int, mine: bool) -> SeatView:
    legal = actions.legal(seat.steps, seat.answers)
    own: dict[str, Any] = {}
    if mine:
        own = {
            "hand_cards": tuple(HandCardView(id=uid, card=side.line(uid).r1.card) for uid in side.hand),
            "lines": tuple(tuple(c.card for c in (ln.r1, *ln.r2, *ln.r3)) for ln in seat.deck.lines),
            "legal": tuple(legal),
            "answers": tuple(actions.action_of(a) for a in seat.answers),
        }
    return SeatView(
        seat=side.seat,
        player_id=seat.deck.player_id,
        hand=len(side.hand),
        pile=len(side.pile),
        synergy=tuple((RACES[race], bp) for race, bp in enumerate(side.synergy) if bp),
        creatures=tuple(CreatureView.of(f, now) for f in side.fighters),
        buffs=tuple(BuffView.of(b) for b in seat.deck.buffs),
        waiting=bool(legal),
        **own,
    )


def view_of(state: HossState, sides: tuple[Side, ...], player: int) -> HossView:
    """The view of `player` (a seat or `SPECTATOR`) from the state and its battle sides refreshed."""
    now = state.round * ROUND_MS
    seats = tuple(
        seat_view(side, seat, now, side.seat == player) for side, seat in zip(sides, state.seats, strict=True)
    )
    return HossView(
        you=None if player == SPECTATOR else player,
        round=state.round,
        max_rounds=MAX_ROUNDS,
        finished=state.finished,
        seats=(seats[0], seats[1]),
        winners=state.winners,
        reason=state.reason,
        scores=state.scores,
    )
