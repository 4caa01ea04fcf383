"""Pillz duel: four characters drawn from a deck, four rounds, secret pillz that multiply power.

The rules are the rulebook's (`../shared/rules/pillz-duel.txt`); `catalog.py` holds the catalog's shape
and ability vocabulary (docs/pillz/abilities.md), `state.py` the state, `rules.py` the round arithmetic,
`engine.py` the engine, registered here so the conformance test covers it, and `ai.py` the computer
opponent. Decisions where the rules are silent: docs/pillz/rules-notes.md.

`__all__` is the game's public API: services, cogs and the sandbox import `engine.pillz` only, never one
of its modules (an import-linter contract in pyproject.toml fails the build otherwise). Tests may import
the modules.
"""

from engine.pillz.ai import choose, choose_quick
from engine.pillz.catalog import STARS, PillzCard, PillzCatalog
from engine.pillz.engine import PillzEngine, PillzSetupError
from engine.pillz.lab import lab_battles
from engine.pillz.packs import (
    CARDS_PER_PACK,
    MAX_PACKS_PER_PURCHASE,
    PACK_PRICE,
    STAR_ODDS_PM,
    PackPool,
    draw_starter,
    open_packs,
)
from engine.pillz.rules import attack_power, round_chance, round_chances
from engine.pillz.state import EffectRecord, Fighter, PillzAction, PillzState, Play, RoundRecord

ENGINE = PillzEngine()

__all__ = [
    "CARDS_PER_PACK",
    "ENGINE",
    "MAX_PACKS_PER_PURCHASE",
    "PACK_PRICE",
    "STARS",
    "STAR_ODDS_PM",
    "EffectRecord",
    "Fighter",
    "PackPool",
    "PillzAction",
    "PillzCard",
    "PillzCatalog",
    "PillzEngine",
    "PillzSetupError",
    "PillzState",
    "Play",
    "RoundRecord",
    "attack_power",
    "choose",
    "choose_quick",
    "draw_starter",
    "lab_battles",
    "open_packs",
    "round_chance",
    "round_chances",
]
