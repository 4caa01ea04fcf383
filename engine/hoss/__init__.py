"""HOSS TCG: creature lines that evolve, fighting in real time in five-second rounds.

The rules are the rulebook's (`../shared/rules/hoss-tcg.txt`); every decision where it is silent is in
docs/hoss/rules-notes.md. Map of the package:

- `rules.py` the rulebook's tables; `bonus.py` rarity/stars/holo, attack speed, Gel slowdown;
- `fighters.py` runtime creatures and sides; `targeting.py`, `defender.py`, `damage.py`, `statuses.py`
  one hit and its consequences; `battle.py` the round simulator; `flow.py` draws, evolution, pauses;
- `state.py` the serializable state at decision points; `convert.py` state <-> battle; `actions.py`
  decisions; `deck.py` setup validation; `log.py` the battle log;
- `engine.py` the platform protocol; `simulate.py` the fast path for AI policies and bulk runs;
  `sample.py` a small built-in catalog and random decks.
"""

from engine.hoss.engine import HossEngine
from engine.registry import register_engine

ENGINE = HossEngine()
register_engine(ENGINE)

__all__ = ["ENGINE", "HossEngine"]
