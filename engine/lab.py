"""What one of a lab's battles reports, whatever the game (docs/lab.md): each game's `lab_battles` plays a
player's deck many times with the engine's own battle and AI and returns these."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LabBattle:
    """One battle from the player's side (seat 0): `won` / `lost` (neither: a draw), its length in the
    game's unit (rounds, phases), and the cards the statistics look at (the opening hand, the cards
    drawn), as catalog ids."""

    seed: int
    won: bool
    lost: bool
    length: int
    drawn: tuple[str, ...]
