"""Chocobataille: wizards on a front and a reserve line, chocolate-frog cards in six rarities.

The rules are the rulebook's (`../shared/rules/chocobataille.txt`); `catalog.py` holds the catalog's
shape and effect vocabulary (docs/choco/cards.md), `engine.py` the rules engine, registered here so the
conformance test covers it. Decisions where the rules are silent: docs/choco/rules-notes.md.
"""

from engine.choco.engine import ChocoEngine
from engine.registry import register_engine

ENGINE = register_engine(ChocoEngine())
