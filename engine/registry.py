"""The engines a process plays, as one value: the conformance test and the services find every game's
engine without a list, and without a module-level table that two containers would share.

A game's package exposes its engine as `ENGINE` (`engine/<game>/__init__.py`) and its `GameSpec.engine`
points at the same object; `services.infra.games.GameRegistry.engines()` builds this registry from the
games it holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.protocol import Engine


def checked(engine: Engine[Any, Any]) -> Engine[Any, Any]:
    """The engine, once it shows the protocol and the class attributes every caller relies on."""
    if not isinstance(engine, Engine):
        raise TypeError(f"{engine!r} does not implement engine.protocol.Engine")
    name = getattr(engine, "name", "")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{engine!r} needs a non-empty class attribute `name`")
    max_steps = getattr(engine, "max_steps", None)
    if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 0:
        raise ValueError(f"engine {name!r} needs a class attribute `max_steps` >= 0")
    return engine


class EngineRegistry(Mapping[str, Engine[Any, Any]]):
    """Engines by name, fixed once built; the same object given twice is harmless (a game's spec and its
    package name the same engine), two objects under one name are refused."""

    def __init__(self, engines: Iterable[Engine[Any, Any]] = ()) -> None:
        found: dict[str, Engine[Any, Any]] = {}
        for engine in engines:
            checked(engine)
            existing = found.get(engine.name)
            if existing is not None and existing is not engine:
                raise ValueError(f"engine {engine.name!r} registered twice")
            found[engine.name] = engine
        self._by_name = dict(sorted(found.items()))

    def __getitem__(self, name: str) -> Engine[Any, Any]:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)
