"""What the engine-wide golden and property tests need to know about each game, found without a list.

Each game's test package may hold a `checks` module (`tests/engine/<game>/checks.py`) defining
`CHECKS = GameChecks(...)`: its catalog model, its golden scenarios (seed, table options, the policy
that plays them) and the shape of its actions for the property tests. `tests/engine/golden.py` and
`tests/engine/test_properties.py` pick every such module up, so a new game adds its own file and
touches none of theirs.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from engine.protocol import Engine, Setup
from engine.registry import EngineRegistry

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

AnyEngine = Engine[Any, Any]
# An action id of the allowed shape (non-empty, at most 64 characters): any such id must read back.
ID = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=64)
# A policy picks (seat, action) among the seats to act; it is built from the scenario's seed.
Policy = Callable[[Any, list[int]], tuple[int, Any]]


def engine_of(game: str) -> AnyEngine:
    """The engine a game's package exposes (`engine.<game>.ENGINE`)."""
    return engines_of_packages()[game]


@cache
def engines_of_packages() -> EngineRegistry:
    """Every engine package's `ENGINE`, found by walking `engine/`: the engines as the packages declare
    them, whatever game declares them to the platform."""
    import engine as engine_package

    found = []
    for info in pkgutil.iter_modules(engine_package.__path__, "engine."):
        if info.ispkg:
            declared = getattr(importlib.import_module(info.name), "ENGINE", None)
            if declared is not None:
                found.append(declared)
    return EngineRegistry(found)


@dataclass(frozen=True)
class Scenario:
    """One checked-in game: which engine, its seed, its table options and who plays."""

    game: str
    name: str
    seed: int
    options: Mapping[str, Any]
    policy: Callable[[int], Policy]
    why: str

    @property
    def engine(self) -> AnyEngine:
        return engine_of(self.game)

    @property
    def path(self) -> Path:
        return HERE / self.game / "golden" / f"{self.name}.json"

    def setup(self) -> Setup:
        """Decks from the engine's own sample setup over the real catalog, table options fixed here."""
        drawn = self.engine.sample_setup(random.Random(self.seed), catalog(self.game))
        return Setup(players=drawn.players, options=dict(self.options))


@dataclass(frozen=True)
class GameChecks:
    """`action_types`: what `action_from_json` may return; `well_formed`: any action of the game whose
    JSON round trip must hold (ids of the allowed length...), legal now or not."""

    game: str
    catalog_model: type[Any]
    golden: tuple[Scenario, ...]
    action_types: tuple[type, ...]
    well_formed: st.SearchStrategy[Any]


@cache
def all_checks() -> dict[str, GameChecks]:
    found: dict[str, GameChecks] = {}
    for info in pkgutil.iter_modules([str(HERE)]):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"tests.engine.{info.name}.checks")
        except ModuleNotFoundError as error:
            if error.name != f"tests.engine.{info.name}.checks":
                raise
            continue
        checks: GameChecks = module.CHECKS
        found[checks.game] = checks
    return dict(sorted(found.items()))


def scenarios() -> tuple[Scenario, ...]:
    return tuple(sc for checks in all_checks().values() for sc in checks.golden)


def scenario(game: str, name: str) -> Scenario:
    return next(sc for sc in scenarios() if (sc.game, sc.name) == (game, name))


@cache
def catalog(game: str) -> Any:
    """The game's real catalog, read with the engine's own model (the services' loader adds only messages)."""
    model = all_checks()[game].catalog_model
    return model.model_validate_json((ROOT / "data" / f"{game}.json").read_text("utf-8"))
