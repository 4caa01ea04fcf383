"""A Dinocard battle's state as the battles' matches read and write it, kept between two clicks.

A battle is computed whole at its launch: its state holds every step of the log, and « Suivant » only moves
`shown` on. Parsing that log back from the JSON at each click was the largest part of the writer's work
for a step (issue 39, docs/performance.md): the states are kept by their JSON
(services/shared/kept_states.py).
"""

from __future__ import annotations

from engine.dinocard import DinocardEngine, DinocardState
from services.shared.kept_states import KeptStates

KEPT_STATES = 64  # about the battles watched at once in one process; the whole set is dropped beyond it


class KeptStatesEngine(DinocardEngine):
    """`DinocardEngine`, with the states it wrote or read kept by their JSON."""

    def __init__(self) -> None:
        super().__init__()
        self.states: KeptStates[DinocardState] = KeptStates(KEPT_STATES, super().from_json)

    def to_json(self, state: DinocardState) -> str:
        return self.states.written(super().to_json(state), state)

    def from_json(self, raw: str) -> DinocardState:
        return self.states.parsed(raw)
