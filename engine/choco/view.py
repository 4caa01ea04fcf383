"""What one seat (or the table) may see of a game, as typed frozen models that renderers read by attribute.

Boards, graveyards and counts are public; a hand only to its owner; no pioche card to anyone; during the
preparatory turn the opponent's secret placement is face down.
"""

from __future__ import annotations

from typing import Literal

from engine.choco.state import Active, Card, ChocoState, Side, Timed
from engine.protocol import SPECTATOR, GameView


class FaceDown(GameView):
    """A card placed secretly in the preparatory turn, seen from the other seat: no instance id."""

    face_down: Literal[True] = True


class SideView(GameView):
    pioche: int
    hand_size: int
    graveyard: tuple[Card, ...]
    front: tuple[Card | FaceDown, ...]
    reserve: tuple[Card | FaceDown, ...]
    hand: tuple[Card, ...] | None = None  # only in its owner's view


class ChocoView(GameView):
    turn: int
    active: int
    finished: bool
    sides: tuple[SideView, SideView]
    active_effects: tuple[Active, ...]
    timed: tuple[Timed, ...]


def _side(state: ChocoState, seat: int, side: Side, player: int) -> SideView:
    hidden = state.turn == 0 and seat != player
    front: tuple[Card | FaceDown, ...] = tuple(FaceDown() for _ in side.front) if hidden else side.front
    reserve: tuple[Card | FaceDown, ...] = tuple(FaceDown() for _ in side.reserve) if hidden else side.reserve
    return SideView(
        pioche=len(side.pioche),
        hand_size=len(side.hand),
        graveyard=side.graveyard,
        front=front,
        reserve=reserve,
        hand=side.hand if seat == player and player != SPECTATOR else None,
    )


def view_of(state: ChocoState, player: int) -> ChocoView:
    return ChocoView(
        turn=state.turn,
        active=state.active,
        finished=state.finished,
        sides=(_side(state, 0, state.sides[0], player), _side(state, 1, state.sides[1], player)),
        active_effects=state.actives,
        timed=state.timed,
    )
