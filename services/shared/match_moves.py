"""A match's moves as its log keeps them (`Matches.moves`) and as a game hands them to be logged
(`Matches.record`): apart from services/shared/matches.py, which re-exports them, to keep it in size."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Author = Literal["player", "ai", "timeout", "skip"]  # skip: the AI for a player who asked


@dataclass(frozen=True)
class Move:
    seq: int
    seat: int
    action: Any  # the engine's action JSON
    author: str
    data: Mapping[str, Any] = field(default_factory=dict)  # the game's own fields of the move


@dataclass(frozen=True)
class Played:
    """A move a game applied itself, to be logged (`Matches.record`)."""

    seat: int
    action: Any  # the engine's action JSON
    author: Author
    data: Mapping[str, Any] = field(default_factory=dict)
