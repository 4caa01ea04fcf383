"""The lab's Pillz duels: a player's deck against the AI, many times, with the practice duel's own table.

Each duel is the one `/pillz entraînement` plays from the same seed and the same two decks when the AI
answers for both seats: `ENGINE.new_game` with the two decks, then `choose` (the AI the practice duel's
opponent uses, the exact search from round 2) on both seats, each move's draws from
`random.Random(f"{seed}:{version}")` as the duel service derives them (services/pillz/duels.py,
`_ai_rng`). The version is the duel's number of saves: 3 when the first round opens (created, started,
posted, its timeout armed), then 2 per move (the move, the next timeout or the end). A test replays lab
seeds through the practice duel's service and gets the same winners.

What a duel reports for the statistics: who won, how many rounds it lasted (a KO ends it early) and the
player's line-up: the 4 characters drawn from the deck before the first round. Every one of them is
played unless a KO ends the duel first, so the line-up is what the deck brought to the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.lab import LabBattle
from engine.pillz.ai import choose
from engine.pillz.catalog import PillzCatalog
from engine.pillz.engine import PillzEngine
from engine.pillz.state import PillzState, Play
from engine.protocol import CATALOG_OPTION, PlayerSetup

PLAYER_SEAT = 0
FIRST_VERSION = 3  # the duel's saves before its first move: created, started, posted, timeout armed
SAVES_PER_MOVE = 2  # the move, then the next timeout (or the end)
_ENGINE = PillzEngine()

Policy = Callable[[PillzState, int, random.Random], Play]


def play_duel(
    catalog: PillzCatalog, decks: tuple[Sequence[str], Sequence[str]], seed: int, policy: Policy = choose
) -> PillzState:
    """The duel of `seed` between the two decks, `policy` answering for both seats with the service's draws."""
    players = [PlayerSetup(seat=s, player_id=s + 1, deck=tuple(decks[s])) for s in (0, 1)]
    state = _ENGINE.new_game(players, seed, {CATALOG_OPTION: catalog})
    version = FIRST_VERSION
    while not state.finished:
        seat = _ENGINE.current_players(state)[0]
        state, _ = _ENGINE.apply(state, seat, policy(state, seat, random.Random(f"{seed}:{version}")))
        version += SAVES_PER_MOVE
    return state


def lab_battles(
    catalog: PillzCatalog,
    deck: Sequence[str],
    opponent_of: Callable[[int], Sequence[str]],
    seeds: Sequence[int],
) -> list[LabBattle]:
    """Play `deck` (seat 0) once per seed against the AI's deck `opponent_of(seed)` (the caller's: the
    practice duel's mirror deck lives in the duel service)."""
    out = []
    for seed in seeds:
        state = play_duel(catalog, (deck, opponent_of(seed)), seed)
        # the line-up drawn before the first round: a duel marks its characters used, never changes them
        drawn = tuple(sorted(f.card_id for f in state.hands[PLAYER_SEAT]))
        won, lost = state.winner == PLAYER_SEAT, state.winner == 1 - PLAYER_SEAT
        out.append(LabBattle(seed, won, lost, len(state.history), drawn))
    return out
