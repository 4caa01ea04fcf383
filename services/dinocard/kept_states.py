"""A Dinocard battle's state as the battles' matches read and write it, kept between two clicks.

A battle is computed whole at its launch: its state holds every step of the log, and « Suivant » only moves
`shown` on. Parsing that log back from the JSON at each click was the largest part of the writer's work
for a step (issue 39, docs/performance.md). The state a save wrote is kept beside the JSON it wrote, so
the next click's load finds it by that very text; a state written by another process (PostgreSQL) is
parsed as before. States are frozen models: sharing one is safe.
"""

from __future__ import annotations

from engine.dinocard import DinocardEngine, DinocardState

KEPT_STATES = 64  # about the battles watched at once in one process; the whole set is dropped beyond it


class KeptStatesEngine(DinocardEngine):
    """`DinocardEngine`, with the states it wrote or read kept by their JSON."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[str, DinocardState] = {}

    def to_json(self, state: DinocardState) -> str:
        raw = super().to_json(state)
        self._keep(raw, state)
        return raw

    def from_json(self, raw: str) -> DinocardState:
        state = self.kept.get(raw)
        if state is None:
            state = super().from_json(raw)
            self._keep(raw, state)
        return state

    def _keep(self, raw: str, state: DinocardState) -> None:
        # plain dict operations (atomic): the writer's thread and the loop's reads share the kept states
        if len(self.kept) >= KEPT_STATES:
            self.kept.clear()
        self.kept[raw] = state
