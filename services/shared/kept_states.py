"""A game's states as its matches read and write them, kept by the JSON written for them.

A match's state is saved as JSON by one write unit and loaded back by the next (a Dinocard battle's next
step, a Chocobataille turn after the last one): parsing it again with pydantic was a large part of the
writer's work for those commands (issue 39, docs/performance.md). The state a save wrote is kept beside
the text it wrote, and the next load finds it by that very text; a state written by another process
(PostgreSQL) is parsed as before. States are frozen models: sharing one is safe.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")


class KeptStates(Generic[S]):
    """The last states an engine wrote or parsed, by their JSON; the whole set is dropped past `size`."""

    def __init__(self, size: int, parse: Callable[[str], S]) -> None:
        self.size = size
        self._parse = parse
        self.kept: dict[str, S] = {}

    def written(self, raw: str, state: S) -> str:
        """`raw`, the JSON just written for `state`, with the state kept under it."""
        self._keep(raw, state)
        return raw

    def parsed(self, raw: str) -> S:
        """The state kept for `raw`, or parsed (and kept)."""
        state = self.kept.get(raw)
        if state is None:
            state = self._parse(raw)
            self._keep(raw, state)
        return state

    def _keep(self, raw: str, state: S) -> None:
        # plain dict operations (atomic): the writer's thread and the loop's reads share the kept states
        if len(self.kept) >= self.size:
            self.kept.clear()
        self.kept[raw] = state
