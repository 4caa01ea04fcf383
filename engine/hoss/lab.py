"""The lab's battles: a player's deck against the AI of a rank, many times, with the ranked battle's own rules.

Each battle is the one `/hoss combat` would play from the same seed when the player lets the AI decide for
them (« Passer à la fin »): the same opponent drawn from the seed (`opponent_setup` on
`derive(seed, "hoss-ranked-opponent")`), the same table (`new_battle` with the Défenseur move pauses of
ranked battles), the strong AI on both seats answering in the same order (the player's seat first, then the
AI's, then the round). Only the log is off, which changes no draw (`simulate.py`); the player's deck is
validated once per batch rather than once per battle, and the catalog's cards converted once
(`start_parsed`, the rest of `new_battle`). A test replays lab seeds
through the ranked service and gets the same winners.

What a battle reports for the statistics: who won, how many rounds it lasted, and the opening hand: the
Rang 1 cards of the 3 lines dealt before the first round. Decision: the opening hand, not every card drawn,
because a battle of 3 rounds or more draws all 6 lines (one per round), so "drawn" would hold every line
of almost every battle and say nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.hoss.ai import strong_policy
from engine.hoss.catalog import HossCatalog
from engine.hoss.deck import HossSetupError, parse_setup
from engine.hoss.engine import start_parsed
from engine.hoss.ranks import opponent_setup
from engine.hoss.simulate import run
from engine.hoss.state import CardSpec
from engine.lab import LabBattle
from engine.protocol import PlayerSetup
from engine.rng import derive

PLAYER_SEAT = 0
OPPONENT_LABEL = "hoss-ranked-opponent"  # the ranked service's label: the same seed draws the same opponent


def ranked_opponent(catalog: HossCatalog, rank: int, seed: int) -> PlayerSetup:
    """The AI's deck a ranked battle of this seed meets at `rank`."""
    return opponent_setup(catalog, rank, random.Random(derive(seed, OPPONENT_LABEL)))


def lab_battles(catalog: HossCatalog, deck: PlayerSetup, rank: int, seeds: Sequence[int]) -> list[LabBattle]:
    """Play `deck` (seat 0) against the AI of `rank` once per seed."""
    policy = strong_policy()
    if deck.seat != PLAYER_SEAT:
        raise HossSetupError("hoss.error.setup.seats")
    player = parse_setup(deck, catalog)  # the same deck in every battle: validated once
    specs: dict[str, CardSpec] = {}
    out = []
    for seed in seeds:
        decks = (player, parse_setup(ranked_opponent(catalog, rank, seed), catalog))
        battle = start_parsed(decks, catalog, seed, specs, move_pauses=True)
        side = battle.sides[PLAYER_SEAT]
        drawn = tuple(sorted({side.line(uid).r1.card for uid in side.hand}))
        run(battle, (policy, policy))
        won = battle.winners == (PLAYER_SEAT,)
        lost = bool(battle.winners) and not won
        out.append(LabBattle(seed, won, lost, battle.round, drawn))
    return out
