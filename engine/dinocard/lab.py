"""The lab's Dinocard battles: a pack against a dojo master's pack (or another pack), many times.

Each battle is the engine's own (`DinocardEngine.new_game`, the function every challenge and dojo fight
computes its battle with, from the same setups: the pack, its skills, no bonus card), so a seed gives the
battle `/dino dojo` would show. The cards the statistics look at are the pack's cards drawn during the
battle (those the log names: played, or turned into energy); the length is the battle's phases (those
of every round when equal life replays one).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dinocard import codes as c
from engine.dinocard.catalog import DinocardCatalog
from engine.dinocard.engine import DinocardEngine
from engine.lab import LabBattle
from engine.protocol import CATALOG_OPTION, PlayerSetup

PLAYER_SEAT = 0
_ENGINE = DinocardEngine()


def phases(log: Sequence[Sequence[tuple[int, ...]]], first: int) -> int:
    """The phases played (every round's): each opens with the first player's turn."""
    return sum(1 for step in log if step and step[0][0] == c.TURN and step[0][1] == first)


def lab_battles(
    catalog: DinocardCatalog, pack: PlayerSetup, opponent: PlayerSetup, seeds: Sequence[int]
) -> list[LabBattle]:
    options = {CATALOG_OPTION: catalog}
    out = []
    for seed in seeds:
        state = _ENGINE.new_game((pack, opponent), seed, options)
        end = len(state.log)
        deck = state.decks[PLAYER_SEAT]
        drawn = tuple(sorted({deck[i] for i, at in enumerate(state.public_at[PLAYER_SEAT]) if at < end}))
        won, lost = state.winner == PLAYER_SEAT, state.winner == 1 - PLAYER_SEAT
        out.append(LabBattle(seed, won, lost, phases(state.log, state.first), drawn))
    return out
