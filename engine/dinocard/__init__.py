"""Dinocard: two packs of cards fight a battle computed in advance, then watched step by step.

The rules are the rulebook's (`../shared/rules/dinocard.txt`); `catalog.py` holds the catalog's shape,
the capacities' vocabulary and the dojo masters, `packs.py` the pack rules, `skills.py` the pack's
levels, experience and skills, `battle.py` the battle, `log.py` how its log reads, `engine.py` the
engine, registered here so the conformance test covers it. Decisions where the rules are silent:
docs/dinocard/rules-notes.md.

`__all__` is the game's public API: other layers import `engine.dinocard` only.
"""

from engine.dinocard.battle import COUNTDOWN, MAX_ROUNDS, Result
from engine.dinocard.catalog import (
    ABILITY_KINDS,
    CARD_TYPES,
    ELEMENTS,
    RARITIES,
    Ability,
    Cost,
    DinocardCard,
    DinocardCatalog,
    Master,
)
from engine.dinocard.engine import DinocardEngine, DinocardSetupError, compute
from engine.dinocard.lab import lab_battles
from engine.dinocard.log import instance_id
from engine.dinocard.packs import (
    MAX_COPIES,
    PACK_MAX,
    PACK_MIN,
    PackProblem,
    bonus_problems,
    bonus_room,
    pack_problems,
)
from engine.dinocard.skills import (
    CHALLENGE_WINDOW,
    MAX_LEVEL,
    Skills,
    bonus_cards,
    can_challenge,
    daily_challenges,
    gain_xp,
    kept_on_top,
    perceived,
    start_life,
    xp_for_win,
    xp_to_next,
)
from engine.dinocard.state import ATTACKED, WATCHER, Advance, DinocardAction, DinocardState
from engine.dinocard.view import DinocardView

ENGINE = DinocardEngine()

__all__ = [
    "ABILITY_KINDS",
    "ATTACKED",
    "CARD_TYPES",
    "CHALLENGE_WINDOW",
    "COUNTDOWN",
    "ELEMENTS",
    "ENGINE",
    "MAX_COPIES",
    "MAX_LEVEL",
    "MAX_ROUNDS",
    "PACK_MAX",
    "PACK_MIN",
    "RARITIES",
    "WATCHER",
    "Ability",
    "Advance",
    "Cost",
    "DinocardAction",
    "DinocardCard",
    "DinocardCatalog",
    "DinocardEngine",
    "DinocardSetupError",
    "DinocardState",
    "DinocardView",
    "Master",
    "PackProblem",
    "Result",
    "Skills",
    "bonus_cards",
    "bonus_problems",
    "bonus_room",
    "can_challenge",
    "compute",
    "daily_challenges",
    "gain_xp",
    "instance_id",
    "kept_on_top",
    "lab_battles",
    "pack_problems",
    "perceived",
    "start_life",
    "xp_for_win",
    "xp_to_next",
]
