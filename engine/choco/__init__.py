"""Chocobataille: wizards on a front and a reserve line, chocolate-frog cards in six rarities.

The rules are the rulebook's (`../shared/rules/chocobataille.txt`); `catalog.py` holds the catalog's
shape and effect vocabulary (docs/choco/cards.md), `engine.py` the rules engine, registered here so the
conformance test covers it. Decisions where the rules are silent: docs/choco/rules-notes.md.

`__all__` is the game's public API: services, cogs and the sandbox import `engine.choco` only, never one
of its modules (an import-linter contract in pyproject.toml fails the build otherwise), so the modules
can be split or renamed without touching another layer. Tests may import the modules.
"""

from engine.choco.ai import ai_turn
from engine.choco.catalog import CARD_TYPES, RARITIES, ChocoCard, ChocoCatalog, Effect, Rarity
from engine.choco.catalog import Step as EffectStep
from engine.choco.effects import chosen_kinds
from engine.choco.engine import ChocoEngine, ChocoSetupError
from engine.choco.frogs import (
    FROG_PRICE,
    MAX_FROGS_PER_PURCHASE,
    RARITY_ODDS_PM,
    FrogPool,
    card_odds,
    draw_among,
    draw_frogs,
)
from engine.choco.penalties import (
    fault_unowned_card,
    forfeit,
    forgive_pass,
    inactivity_24h,
    inactivity_72h,
    restore_destroyed,
)
from engine.choco.state import (
    DECK_SIZE,
    MAX_COPIES,
    Active,
    Attack,
    Card,
    ChocoAction,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Line,
    Move,
    PlayEffect,
    Prepare,
    Side,
    Step,
    Summon,
    Timed,
    Turn,
)

ENGINE = ChocoEngine()

__all__ = [
    "CARD_TYPES",
    "DECK_SIZE",
    "ENGINE",
    "FROG_PRICE",
    "MAX_COPIES",
    "MAX_FROGS_PER_PURCHASE",
    "RARITIES",
    "RARITY_ODDS_PM",
    "Active",
    "Attack",
    "Card",
    "ChocoAction",
    "ChocoCard",
    "ChocoCatalog",
    "ChocoEngine",
    "ChocoSetupError",
    "ChocoState",
    "DeckAttack",
    "Discard",
    "Effect",
    "EffectStep",
    "EndTurn",
    "FrogPool",
    "Line",
    "Move",
    "PlayEffect",
    "Prepare",
    "Rarity",
    "Side",
    "Step",
    "Summon",
    "Timed",
    "Turn",
    "ai_turn",
    "card_odds",
    "chosen_kinds",
    "draw_among",
    "draw_frogs",
    "fault_unowned_card",
    "forfeit",
    "forgive_pass",
    "inactivity_24h",
    "inactivity_72h",
    "restore_destroyed",
]
