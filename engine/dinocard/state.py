"""Dinocard's state and its one action: the battle is computed whole by `new_game`, then watched.

The state holds the computed log (`log`, one entry per step: a player's turn or a combat) and how many
steps were shown (`shown`). The only decision left is when to watch the next step: `Advance(steps)`
shows the next step, or every step up to the end of the phase (the combat). Nothing else can change a
battle once it is computed, which is what the rulebook says ("calculés à l'avance").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.protocol import GameState

WATCHER = 0  # the challenger: the seat that launched the challenge watches it (seat 1 is attacked)
ATTACKED = 1  # rulebook: "Le joueur qui est attaqué commence à jouer"

LogEvent = tuple[int, ...]
LogStep = tuple[LogEvent, ...]


@dataclass(frozen=True, slots=True)
class Advance:
    """Show the next `steps` steps of the battle (1, or to the end of the phase)."""

    steps: int = 1


DinocardAction: TypeAlias = Advance


class DinocardState(GameState):
    """`decks`: catalog ids per seat by instance index (the pack as given, then the bonus cards), so
    events name "a12" and the card it is. `public_at[seat][i]`: the first step whose public events name
    that card (`len(log)` if none): until it is shown, the card is hidden from the other seat.
    `winner` (-1: a draw), `reason`, `life` and `rounds` are the computed result, given out only once
    every step was shown."""

    player_ids: tuple[int, int]
    decks: tuple[tuple[str, ...], tuple[str, ...]]
    first: int
    start_life: tuple[int, int]
    opening: LogEvent
    log: tuple[LogStep, ...]
    public_at: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int
    reason: str
    life: tuple[int, int]
    rounds: int
    shown: int = 0
    finished: bool = False
