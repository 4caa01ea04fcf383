"""What a seat (or the table) sees of a battle being watched: the steps shown so far, nothing ahead.

The board after the last step shown (life, piles, energies, rails, objects), that step's events, the
phase and round. An egg's card is shown to its owner only. The result and the whole log (every step,
private events included) are given only once the last step is shown: before that the view does not even
say how many steps are left, since that would tell when the battle ends.
"""

from __future__ import annotations

from typing import Any

from engine.dinocard import codes as c
from engine.dinocard.log import board_data, to_events
from engine.dinocard.state import DinocardState
from engine.protocol import GameView


class DinocardView(GameView):
    viewer: int
    player_ids: tuple[int, int]
    first: int
    start_life: tuple[int, int]
    shown: int
    round: int
    phase: int
    board: dict[str, Any]
    events: tuple[dict[str, Any], ...]  # the last step's, as the viewer may see them
    finished: bool
    winner: int | None = None
    draw: bool = False
    reason: str | None = None
    log: tuple[tuple[dict[str, Any], ...], ...] = ()  # every step, once finished


def step_events(state: DinocardState, index: int, viewer: int | None) -> tuple[dict[str, Any], ...]:
    """The events of step `index` that `viewer` may see (None: all of them)."""
    return tuple(
        e.to_json()
        for raw in state.log[index]
        for e in to_events(raw, state.decks)
        if viewer is None or e.visible(viewer)
    )


def view_of(state: DinocardState, viewer: int) -> DinocardView:
    shown = state.shown
    last = state.log[shown - 1] if shown else ()
    board = next((e for e in last if e[0] == c.BOARD), state.opening)
    rounds = 1 + sum(1 for step in state.log[:shown] for e in step[:2] if e[0] == c.ROUND)
    head = last[0] if last else (c.TURN, state.first, 0)
    over: dict[str, Any] = {}
    if state.finished:
        over = {
            "winner": None if state.winner < 0 else state.winner,
            "draw": state.winner < 0,
            "reason": f"dinocard.outcome.{state.reason}",
            "log": tuple(step_events(state, i, None) for i in range(len(state.log))),
        }
    return DinocardView(
        viewer=viewer,
        player_ids=state.player_ids,
        first=state.first,
        start_life=state.start_life,
        shown=shown,
        round=rounds,
        phase=head[2] if head[0] == c.TURN else head[1],
        board=board_data(board, state.decks, viewer),
        events=step_events(state, shown - 1, viewer) if shown else (),
        finished=state.finished,
        **over,
    )
