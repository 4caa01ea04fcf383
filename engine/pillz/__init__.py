"""Pillz duel: four characters drawn from a deck, four rounds, secret pillz that multiply power.

The rules are the rulebook's (`../shared/rules/pillz-duel.txt`); `catalog.py` holds the catalog's shape
and ability vocabulary (docs/pillz/abilities.md), `state.py` the state, `rules.py` the round arithmetic,
`engine.py` the engine, registered here so the conformance test covers it, and `ai.py` the computer
opponent. Decisions where the rules are silent: docs/pillz/rules-notes.md.
"""

from engine.pillz.engine import PillzEngine
from engine.registry import register_engine

ENGINE = register_engine(PillzEngine())
