"""The lab's Immortal's War duels: a player's deck against the AI, many times, on each terrain or one.

Each duel is the one `/immortels entraînement` plays from the same seed and the same two decks when the AI
answers for both seats: `ENGINE.new_game` with the two decks (the terrain drawn from the seed, as in every
duel), then `choose` (the AI of the practice duel's opponent) for each seat to act, its draws from
`random.Random(f"{seed}:{version}:{seat}")` as the duel service derives them
(services/immortals/duels.py, `_ai_choice`). The version is the duel's number of saves: 2 once started
and posted, one per move, and one more before each of the player's moves (the timeout armed for them).

A lab on one terrain plays the duels whose own terrain draw gave that terrain: for each of the lab's
seeds, the first of `derive(seed, "immortals-lab-terrain", k)` (k = 0, 1, ...) that draws it, so every
lab duel is a practice duel of a seed, never a table the game cannot deal, and a test replays lab seeds
through the practice duel's service with the same winners.

What a duel reports for the statistics: who won, how many rounds it lasted (a KO ends it early) and the
player's line-up: the distinct units among the 4 drawn from the deck before the first round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.immortals.ai import choose
from engine.immortals.catalog import ImmortalsCatalog
from engine.immortals.engine import ImmortalsEngine, drawn_terrain
from engine.immortals.state import Choose, ImmortalsState, seat_to_act
from engine.lab import LabBattle
from engine.protocol import CATALOG_OPTION, PlayerSetup
from engine.rng import derive

PLAYER_SEAT = 0
STARTED_VERSION = 2  # the duel's saves once it is live: created at 0, started, posted
TERRAIN_LABEL = "immortals-lab-terrain"
MAX_TRIES = 200  # a terrain is drawn 1 time in 4: 200 misses in a row would be a broken draw
_ENGINE = ImmortalsEngine()

Policy = Callable[[ImmortalsState, int, random.Random], Choose]


def new_duel(catalog: ImmortalsCatalog, setups: tuple[PlayerSetup, PlayerSetup], seed: int) -> ImmortalsState:
    return _ENGINE.new_game(setups, seed, {CATALOG_OPTION: catalog})


def play_duel(state: ImmortalsState, seed: int, policy: Policy = choose) -> ImmortalsState:
    """The duel from its first state to its end, `policy` choosing for both seats with the service's
    draws (the player's seat is the AI's choice at the version the player would choose at)."""
    version = STARTED_VERSION
    while (seat := seat_to_act(state)) is not None:
        if seat == PLAYER_SEAT:
            version += 1  # the player's timeout, armed before they choose
        state, _ = _ENGINE.apply(state, seat, policy(state, seat, random.Random(f"{seed}:{version}:{seat}")))
        version += 1
    return state


def drawn_on(
    catalog: ImmortalsCatalog,
    deck: PlayerSetup,
    opponent_of: Callable[[int], PlayerSetup],
    terrain: str,
    seed: int,
    theirs: tuple[int, int] | None = None,
) -> tuple[int, ImmortalsState]:
    """The first seed derived from `seed` whose duel is drawn on `terrain`, and that duel's first state.

    A candidate's terrain is read from its draw alone (`drawn_terrain`, from the sizes of the two decks
    and known spells) and only the chosen candidate's duel is built: four candidates on average. The
    opponent's sizes are those of the first candidate's opponent: `opponent_of` must give one deck size
    and one number of known spells whatever the seed (the practice mirror deck does: the player's deck
    size and the starter spells); the chosen candidate's opponent is checked against them. `lab_battles`
    gives its first seed's sizes as `theirs` for every seed: only the chosen candidate's opponent is then
    built (0.75 mirror decks fewer a duel)."""
    mine = _sizes(deck)
    first = None
    if theirs is None:
        first = opponent_of(derive(seed, TERRAIN_LABEL, 0))
        theirs = _sizes(first)
    for k in range(MAX_TRIES):
        candidate = derive(seed, TERRAIN_LABEL, k)
        if drawn_terrain(candidate, (mine, theirs)) != terrain:
            continue
        opponent = first if k == 0 and first is not None else opponent_of(candidate)
        if _sizes(opponent) != theirs:
            raise ValueError("the opponent's deck or spells change size with the seed")
        state = new_duel(catalog, (deck, opponent), candidate)
        if state.terrain != terrain:
            raise AssertionError(f"seed {candidate}: the duel's terrain is not the one its draw gave")
        return candidate, state
    raise ValueError(f"no duel drawn on {terrain}")


def _sizes(setup: PlayerSetup) -> tuple[int, int]:
    """What the engine draws a seat's units and spells from (its extras as `new_game` reads them)."""
    return len(setup.deck), len(setup.extra.get("spells", ()))


def lab_battles(
    catalog: ImmortalsCatalog,
    deck: PlayerSetup,
    opponent_of: Callable[[int], PlayerSetup],
    terrain: str | None,
    seeds: Sequence[int],
) -> list[LabBattle]:
    """Play `deck` (seat 0) once per seed against the AI's deck `opponent_of(seed)` (the caller's: the
    practice duel's mirror deck lives in the duel service), on `terrain` or on the terrain drawn."""
    out = []
    # The opponent's sizes, as `drawn_on` reads them for the batch's first seed (one size whatever the
    # seed: `drawn_on` checks each chosen opponent against them).
    theirs = (
        _sizes(opponent_of(derive(seeds[0], TERRAIN_LABEL, 0))) if terrain is not None and seeds else None
    )
    for seed in seeds:
        if terrain is None:
            played, state = seed, new_duel(catalog, (deck, opponent_of(seed)), seed)
        else:
            played, state = drawn_on(catalog, deck, opponent_of, terrain, seed, theirs)
        drawn = tuple(sorted({u.card_id for u in state.units[PLAYER_SEAT]}))
        state = play_duel(state, played)
        won, lost = state.winner == PLAYER_SEAT, state.winner == 1 - PLAYER_SEAT
        out.append(LabBattle(played, won, lost, len(state.history), drawn))
    return out
