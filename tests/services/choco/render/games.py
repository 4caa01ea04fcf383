"""Real Chocobataille games for the renderer tests: the catalog of data/choco.json (145 distinct names,
so a name found in a post designates one card) and seeded random play, with occasional penalties."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from discord_app.render import text
from engine.choco import penalties
from engine.choco.catalog import ChocoCatalog
from engine.choco.engine import ChocoEngine
from engine.choco.state import ChocoState
from engine.protocol import CATALOG_OPTION, Event
from services.infra.catalogs import load_catalog
from services.infra.messages import Text

ROOT = Path(__file__).resolve().parents[4]
ENGINE = ChocoEngine()
NAMES = ("Alice", "Bob")


@cache
def catalog() -> ChocoCatalog:
    return load_catalog(ROOT / "data" / "choco.json", ChocoCatalog)


def render(value: Text, lang: str) -> str:
    return text(value, lang)


def new_game(seed: int, max_turns: int | None = None) -> ChocoState:
    rng = random.Random(seed)
    setup = ENGINE.sample_setup(rng, catalog())
    options = {**setup.options, CATALOG_OPTION: catalog()}
    if max_turns is not None:
        options["max_turns"] = max_turns
    return ENGINE.new_game(setup.players, seed, options)


@dataclass(frozen=True)
class Played:
    before: ChocoState
    events: list[Event]
    after: ChocoState


def play(seed: int, penalty_rate: float = 0.0, max_turns: int | None = None) -> Iterator[Played]:
    """Every action of a seeded random game (step by step), with a penalty instead of a step now and
    then when `penalty_rate` > 0."""
    rng = random.Random(seed)
    state = new_game(seed, max_turns)
    while ENGINE.current_players(state):
        seat = rng.choice(ENGINE.current_players(state))
        before = state
        roll = rng.random()
        if state.turn > 0 and roll < penalty_rate:
            apply = rng.choice(
                (penalties.inactivity_24h, penalties.inactivity_72h, penalties.fault_unowned_card)
            )
            state, events = apply(state, seat)
        elif state.turn > 0 and roll < penalty_rate * 1.1:
            state, events = penalties.forfeit(state, seat)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
            state, events = ENGINE.apply(state, seat, action)
        yield Played(before, events, state)
