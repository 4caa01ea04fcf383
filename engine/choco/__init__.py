"""Chocobataille: wizards on a front and a reserve line, chocolate-frog cards in six rarities.

The rules are the rulebook's (`/work/shared/rules/chocobataille.txt`). For now this package holds the
catalog's shape (`catalog.py`): the cards, their rarities and stat ranges, and the data-driven effect
vocabulary the engine will interpret (documented in docs/choco/cards.md). No engine is registered yet.
"""
