"""Match states kept beside the JSON the block wrote or read, for the games whose rules ask it
(`MatchRules.kept_states`): the next load of the match finds the state by that very text instead of
parsing it again.

A Dinocard battle is computed whole at its launch, so its state holds every step of the log, and parsing
it back at each « Suivant » was the largest part of the writer's work for a step; a HOSS ranked battle's
state is parsed by the start's `attach`, each « Décider » and each answer (issue 39,
docs/performance.md). A state another process wrote (PostgreSQL) is another text, parsed as before.
States are frozen models, immutable all the way down (`engine.protocol.GameState`): sharing one is safe.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from engine.protocol import Engine

S = TypeVar("S")


class KeptStates(Generic[S]):
    """Up to `size` states by their JSON; the whole set is dropped beyond it."""

    def __init__(self, engine: Engine[S, Any], size: int) -> None:
        self.engine = engine
        self.size = size
        self.kept: dict[str, S] = {}

    def to_json(self, state: S) -> str:
        raw = self.engine.to_json(state)
        self._keep(raw, state)
        return raw

    def from_json(self, raw: str) -> S:
        state = self.kept.get(raw)
        if state is None:
            state = self.engine.from_json(raw)
            self._keep(raw, state)
        return state

    def _keep(self, raw: str, state: S) -> None:
        # plain dict operations (atomic): the writer's thread and the loop's reads share the kept states
        if len(self.kept) >= self.size:
            self.kept.clear()
        self.kept[raw] = state
