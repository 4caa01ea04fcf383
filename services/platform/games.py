"""The registry that lets a game plug in without touching the platform.

A game's package (`services/<game>/`) exposes `GAME = GameSpec(...)` in its `__init__`; `discover()`
imports them all. The platform then knows each game's currencies (starting wallets), catalog,
engine and profile summary, and the cogs, help, `/card` and `/profile` follow.
"""

from __future__ import annotations

import importlib
import pkgutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import services
from services.platform.card_images.spec import CardArt
from services.platform.messages import Text
from services.platform.timers import DailyReward, TimerSource


@dataclass(frozen=True)
class Currency:
    code: str  # stored in wallets.currency, e.g. "hoss_gold"
    name_key: str  # message key of its display name
    starting: int = 0  # granted once when the player is created


@dataclass(frozen=True)
class SummaryLine:
    key: str
    params: dict[str, object] = field(default_factory=dict)


ProfileSummary = Callable[[sqlite3.Connection, int], list[SummaryLine]]
# How a game shows one card in /card, in the reader's language: (label, value) pairs of message Texts.
# It receives the card, the loaded catalog the card comes from (what the card only names by id, such as
# a Pillz clan, is read there: a process may hold several containers, each with its own catalog) and
# the locale.
CardFields = Callable[[Any, Any, str], list[tuple[Text, Text]]]


@dataclass(frozen=True)
class GameContext:
    """What a game's services are built from; the container hands it to `GameSpec.build`."""

    db: Any  # store.db.Database
    clock: Any  # core.clock.Clock
    catalog: Any  # the game's loaded catalog, or None
    scheduler: Any  # services.platform.scheduler.Scheduler
    rng: Any  # a random.Random for draws the players cannot predict


GameFactory = Callable[[GameContext], Any]


@dataclass(frozen=True)
class GameSpec:
    key: str  # short stable id: "hoss", "pillz", ...
    name_key: str  # message key of the game's display name
    command_group: str  # base name of its slash command group
    currencies: tuple[Currency, ...] = ()
    catalog_model: type[Any] | None = None  # pydantic model of data/<key>.json
    engine: Any = None  # an engine.protocol.Engine
    profile_summary: ProfileSummary | None = None
    card_fields: CardFields | None = None
    build: GameFactory | None = None  # the game's services, reachable as services.platform.games[key]
    card_art: CardArt | None = None  # how its cards are drawn (services/<game>/card_image.py)
    daily: DailyReward | None = None  # its daily reward and streak table (services/platform/daily.py)
    timers: TimerSource | None = None  # the player's timers in the game, for /cooldowns and reminders


_registry: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    existing = _registry.get(spec.key)
    if existing is not None and existing is not spec:
        raise ValueError(f"game {spec.key!r} registered twice")
    _registry[spec.key] = spec
    return spec


def unregister(key: str) -> None:
    _registry.pop(key, None)


def all_games() -> list[GameSpec]:
    return sorted(_registry.values(), key=lambda g: g.key)


def get(key: str) -> GameSpec | None:
    return _registry.get(key)


def currencies() -> list[Currency]:
    return [c for g in all_games() for c in g.currencies]


# Packages of services/ that are not a game.
NOT_GAMES = ("platform", "shared")


def discover() -> list[GameSpec]:
    """Import every game package (`services/<game>/`) and register those that declare a `GAME`."""
    for info in pkgutil.iter_modules(services.__path__):
        if not info.ispkg or info.name in NOT_GAMES:
            continue
        module = importlib.import_module(f"services.{info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            register(spec)
    return all_games()
