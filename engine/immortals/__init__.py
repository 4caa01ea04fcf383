"""Immortal's War: duels of four units drawn from a deck, D2 dice fights on a terrain, spells cast in secret.

The rules are the rulebook's (`../shared/rules/immortals-war.txt`); `catalog.py` holds the catalog's
shape (units, families, spells, terrains, level table), `state.py` the state and action, `rules.py` the
dice and the fight, `engine.py` the engine, registered here so the conformance test covers it,
`progress.py` what a duel is worth (experience, combat points, gains, anti-farm), the deck rules and the
sign-up draw, and `ai.py` the computer opponent. Decisions where the rules are silent:
docs/immortals/rules-notes.md.

`__all__` is the game's public API: services, cogs and the sandbox import `engine.immortals` only, never
one of its modules (an import-linter contract in pyproject.toml fails the build otherwise).
"""

from engine.immortals.ai import choose
from engine.immortals.catalog import (
    MAX_LEVEL,
    TERRAINS,
    Bonus,
    CardBonus,
    Effect,
    Family,
    ImmortalsCard,
    ImmortalsCatalog,
    ImmortalsSpell,
)
from engine.immortals.engine import ImmortalsEngine, ImmortalsSetupError
from engine.immortals.lab import lab_battles
from engine.immortals.progress import (
    CARD_XP,
    DECK_MAX,
    DECK_MIN,
    MAX_COPIES_BY_LEVEL,
    CardXp,
    DuelResult,
    combat_points,
    consecutive_duels,
    deck_problems,
    duel_result,
    player_xp,
    starter_deck,
    starter_spells,
)
from engine.immortals.rules import level_of, on_terrain
from engine.immortals.state import (
    ROUNDS,
    START_VITALITY,
    Choose,
    Fighter,
    FightRecord,
    ImmortalsAction,
    ImmortalsState,
    SpellCard,
    Unit,
)
from engine.immortals.view import ImmortalsView, SpellView

ENGINE = ImmortalsEngine()

__all__ = [
    "CARD_XP",
    "DECK_MAX",
    "DECK_MIN",
    "ENGINE",
    "MAX_COPIES_BY_LEVEL",
    "MAX_LEVEL",
    "ROUNDS",
    "START_VITALITY",
    "TERRAINS",
    "Bonus",
    "CardBonus",
    "CardXp",
    "Choose",
    "DuelResult",
    "Effect",
    "Family",
    "FightRecord",
    "Fighter",
    "ImmortalsAction",
    "ImmortalsCard",
    "ImmortalsCatalog",
    "ImmortalsEngine",
    "ImmortalsSetupError",
    "ImmortalsSpell",
    "ImmortalsState",
    "ImmortalsView",
    "SpellCard",
    "SpellView",
    "Unit",
    "choose",
    "combat_points",
    "consecutive_duels",
    "deck_problems",
    "duel_result",
    "lab_battles",
    "level_of",
    "on_terrain",
    "player_xp",
    "starter_deck",
    "starter_spells",
]
