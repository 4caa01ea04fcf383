"""Where engines announce themselves, so the conformance test and services find every game without a list.

A game's package registers its engine on import (`engine/<game>/__init__.py`):
`register_engine(HossEngine())`. Its `GameSpec.engine` points at the same object.
"""

from __future__ import annotations

from typing import Any

from engine.protocol import Engine

_engines: dict[str, Engine[Any, Any]] = {}


def register_engine(engine: Engine[Any, Any]) -> Engine[Any, Any]:
    """Add an engine; registering the same object twice is harmless (modules may be re-imported)."""
    if not isinstance(engine, Engine):
        raise TypeError(f"{engine!r} does not implement engine.protocol.Engine")
    name = getattr(engine, "name", "")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{engine!r} needs a non-empty class attribute `name`")
    max_steps = getattr(engine, "max_steps", None)
    if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 0:
        raise ValueError(f"engine {name!r} needs a class attribute `max_steps` >= 0")
    existing = _engines.get(name)
    if existing is not None and existing is not engine:
        raise ValueError(f"engine {name!r} registered twice")
    _engines[name] = engine
    return engine


def unregister_engine(name: str) -> None:
    """For tests that register a throwaway engine."""
    _engines.pop(name, None)


def engines() -> dict[str, Engine[Any, Any]]:
    """A copy, so callers cannot register behind the registry's back."""
    return dict(sorted(_engines.items()))
