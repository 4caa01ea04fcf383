"""The strong AI's decisions and the lab battles' outcomes, pinned: any speed-up of the engine or of the AI
must leave every choice and every result of the same seeds as they were.

The digest below was computed on the code before the lab's speed work (the strong AI of ai.py and
ai_model.py as they were, the look-aheads cloning through the frozen state): 200 seeded lab battles (the
ranked table, the strong AI on both seats, as engine/hoss/lab.py plays them), every decision of each
seat in order, then the winners, the rounds, the scores and the hits of each battle; and what `lab_battles`
reported for 108 seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from engine.hoss.actions import ChoosePath, HossAction
from engine.hoss.ai import strong_policy
from engine.hoss.battle import Battle
from engine.hoss.catalog import HossCatalog
from engine.hoss.engine import MOVE_PAUSES_OPTION, new_battle
from engine.hoss.lab import lab_battles, ranked_opponent
from engine.hoss.simulate import Policy, run
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog

BATTLES = 200
PINNED = "796cdfd1e752196308a677a74e844036d7eb58f6d5a2f9748042733779a1cfbf"


@cache
def catalog() -> HossCatalog:
    return load_catalog(DATA_DIR / "hoss.json", HossCatalog)


def decks() -> list[PlayerSetup]:
    """Player decks of every strength: Basique Rang 1 lines up to Divin lines with two Rang 2 paths."""
    return [
        replace(ranked_opponent(catalog(), rank, 7 + rank), seat=0, player_id=1) for rank in (2, 4, 5, 7, 9)
    ]


def played(seeds: Sequence[int]) -> tuple[str, int]:
    """The digest of the battles of `seeds`, and how many Rang 2 path choices (the look-aheads) they held."""
    digest = hashlib.sha256()
    paths = 0
    options = {CATALOG_OPTION: catalog(), MOVE_PAUSES_OPTION: True}
    strong = strong_policy()
    every = decks()

    def recording(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
        nonlocal paths
        chosen = strong(battle, seat, legal)
        paths += isinstance(chosen, ChoosePath) and len(legal) > 1
        digest.update(f"{battle.round}:{seat}:{chosen!r};".encode())
        return chosen

    policy: Policy = recording
    for seed in seeds:
        deck = every[seed % len(every)]
        rank = 1 + seed % 9
        battle = new_battle((deck, ranked_opponent(catalog(), rank, seed)), seed, options)
        run(battle, (policy, policy))
        digest.update(f"|{seed}:{battle.winners}:{battle.round}:{battle.scores}:{battle.hits}|".encode())
    return digest.hexdigest(), paths


def test_the_strong_ai_decides_and_the_battles_end_as_before() -> None:
    digest, paths = played(range(BATTLES))
    assert paths > 20  # the Rang 2 look-aheads are exercised, not only the card choice
    assert digest == PINNED


LAB_PINNED = "5d08ee201f80d58db632a13ee3ef37fbd43aea6bc46d464ea0442bb2d866b928"


def test_the_lab_battles_report_as_before() -> None:
    """`lab_battles` (its deck validated once per batch) reports, for 12 seeds at each rank, what it
    reported before the speed work: seed, won, lost, rounds and opening hand (digest computed then)."""
    digest = hashlib.sha256()
    for rank in range(1, 10):
        deck = replace(ranked_opponent(catalog(), 1 + rank % 9, 40 + rank), seat=0, player_id=1)
        for battle in lab_battles(catalog(), deck, rank, range(1000 * rank, 1000 * rank + 12)):
            digest.update(repr(battle).encode())
    assert digest.hexdigest() == LAB_PINNED
