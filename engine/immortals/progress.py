"""What a finished duel is worth, deck rules and the sign-up draw: pure functions services call.

- Card XP (rulebook table, by the player's result and the card's fight): win 9/6/3, draw 8/5/2,
  loss 7/4/1 for a fight won / drawn / lost. Only the units that fought gain (a KO may end a duel early).
- Player XP: the XP all its cards gained (maxed cards too) + the levels of the opponent's fighting units
  − the levels of its own, never below 0.
- Combat points: the player XP gained + 5 if it won all four rounds + 5 if it ends at full vitality
  + 20 if it killed the opponent.
- Gains: gold and soul fragments (amounts below); anti-farm halves every gain of a duel that follows
  one against the same opponent (rulebook: « Tout combat consécutif avec le même adversaire se vera
  infligé un malus de 50% à tous les gains. »): 50 %, however long the run; another opponent in between
  resets it. Halved card XP rounds up, so a unit that fought always gains some (« Chaque combat, gagné
  ou perdu, fera gagner de l'expérience à vos unités. »); the other halved gains round down.
- Decks: 4 to 30 units; copies of one card: 3 at most while none is above level 3, 2 if one is
  level 4, 1 if one is level 5 (never 4).
Decisions and their reasons: docs/immortals/rules-notes.md.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from engine.immortals.catalog import MAX_LEVEL, ImmortalsCatalog
from engine.immortals.state import ROUNDS, START_VITALITY, ImmortalsState

# CARD_XP[player result][fight result]; results are "win", "draw", "loss".
CARD_XP: dict[str, dict[str, int]] = {
    "win": {"win": 9, "draw": 6, "loss": 3},
    "draw": {"win": 8, "draw": 5, "loss": 2},
    "loss": {"win": 7, "draw": 4, "loss": 1},
}
SWEEP_BONUS = 5  # all four rounds won
FULL_LIFE_BONUS = 5  # the duel ends with the player's whole vitality
KILL_BONUS = 20  # the opponent's vitality fell to 0
GOLD = {"win": 30, "draw": 15, "loss": 5}
GOLD_PER_ROUND_WON = 5
FRAGMENTS = {"win": 2, "draw": 1, "loss": 0}
FRAGMENTS_FOR_KILL = 3

DECK_MIN = 4
DECK_MAX = 30
STARTER_SIZE = 8
STARTER_TIER = 1
# Copies of one card allowed in a deck, by the highest level among them (rulebook "Cartes identiques").
MAX_COPIES_BY_LEVEL = {1: 3, 2: 3, 3: 3, 4: 2, 5: 1}


def result_of(state: ImmortalsState, seat: int) -> str:
    """The player's result: "win", "draw" or "loss" (the duel must be finished)."""
    if state.winner is None:
        return "draw"
    return "win" if state.winner == seat else "loss"


def fight_result(winner: int | None, seat: int) -> str:
    if winner is None:
        return "draw"
    return "win" if winner == seat else "loss"


@dataclass(frozen=True)
class CardXp:
    """Experience one fighting unit gained; `deck_index` names the copy in the player's deck."""

    uid: str
    card_id: str
    deck_index: int
    xp: int


@dataclass(frozen=True)
class DuelResult:
    """Everything a player gains from a finished duel, after the anti-farm halving: `consecutive` duels
    against the same opponent came just before this one, and every gain was halved `halvings` times (1
    when `consecutive` is, 0 otherwise)."""

    seat: int
    result: str
    cards: tuple[CardXp, ...]
    player_xp: int
    combat_points: int
    gold: int
    fragments: int
    rounds_won: int
    halvings: int
    consecutive: int


def card_xp(state: ImmortalsState, seat: int) -> tuple[CardXp, ...]:
    """The XP of each of `seat`'s units that fought, in the order they fought."""
    result = result_of(state, seat)
    units = {u.uid: u for u in state.units[seat]}
    gained = []
    for record in state.history:
        unit = units[record.fighters[seat].uid]
        xp = CARD_XP[result][fight_result(record.winner, seat)]
        gained.append(CardXp(uid=unit.uid, card_id=unit.card_id, deck_index=unit.deck_index, xp=xp))
    return tuple(gained)


def player_xp(cards_xp: int, own_levels: int, foe_levels: int) -> int:
    """XP gained by all cards + the opponent's units' levels − one's own, never below 0."""
    return max(0, cards_xp + foe_levels - own_levels)


def combat_points(xp: int, rounds_won: int, vitality: int, killed: bool) -> int:
    return (
        xp
        + (SWEEP_BONUS if rounds_won == ROUNDS else 0)
        + (FULL_LIFE_BONUS if vitality == START_VITALITY else 0)
        + (KILL_BONUS if killed else 0)
    )


def consecutive_duels(opponent: int, previous: Sequence[int]) -> int:
    """How many duels in a row, just before this one, the player fought against `opponent`.

    `previous` lists the player's earlier opponents, oldest first; only the unbroken run at its end counts.
    """
    count = 0
    for earlier in reversed(previous):
        if earlier != opponent:
            break
        count += 1
    return count


def halve(amount: int, halved: bool) -> int:
    """Anti-farm: half of `amount` when `halved`, rounded down."""
    return amount // 2 if halved and amount > 0 else amount


def halve_card_xp(xp: int, halved: bool) -> int:
    """Anti-farm on a fighting unit's XP: half, rounded up, so that a fight always gives at least 1."""
    return (xp + 1) // 2 if halved and xp > 0 else xp


def duel_result(state: ImmortalsState, seat: int, previous_opponents: Sequence[int] = ()) -> DuelResult:
    """What `seat` gains from the finished duel in `state`, given its earlier opponents (oldest first)."""
    if not state.finished:
        raise ValueError("the duel is not over")
    foe = 1 - seat
    result = result_of(state, seat)
    cards = card_xp(state, seat)
    fought = [r.fighters for r in state.history]
    levels = {u.uid: u.level for side in state.units for u in side}
    own = sum(levels[f[seat].uid] for f in fought)
    theirs = sum(levels[f[foe].uid] for f in fought)
    xp = player_xp(sum(c.xp for c in cards), own, theirs)
    won = sum(1 for r in state.history if r.winner == seat)
    killed = state.vitality[foe] == 0
    points = combat_points(xp, won, state.vitality[seat], killed)
    gold = GOLD[result] + GOLD_PER_ROUND_WON * won
    fragments = FRAGMENTS[result] + (FRAGMENTS_FOR_KILL if killed else 0)
    run = consecutive_duels(state.player_ids[foe], previous_opponents)
    halved = run > 0
    return DuelResult(
        seat=seat,
        result=result,
        cards=tuple(CardXp(c.uid, c.card_id, c.deck_index, halve_card_xp(c.xp, halved)) for c in cards),
        player_xp=halve(xp, halved),
        combat_points=halve(points, halved),
        gold=halve(gold, halved),
        fragments=halve(fragments, halved),
        rounds_won=won,
        halvings=int(halved),
        consecutive=run,
    )


def deck_problems(cards: Sequence[tuple[str, int]], catalog: ImmortalsCatalog) -> list[str]:
    """Why a deck of (card id, level) pairs is refused, as short reason codes; [] when it is valid.

    Codes: "size" (not 4 to 30 units), "unknown:<id>", "level:<id>" (not 1 to 5),
    "copies:<id>" (more copies than the highest level among them allows).
    """
    problems: list[str] = []
    if not DECK_MIN <= len(cards) <= DECK_MAX:
        problems.append("size")
    known = catalog.cards_by_id()
    levels: dict[str, list[int]] = {}
    for card_id, level in cards:
        if not isinstance(card_id, str) or card_id not in known:
            problems.append(f"unknown:{card_id}")
        elif not 1 <= level <= MAX_LEVEL:
            problems.append(f"level:{card_id}")
        elif card_id in levels:
            levels[card_id].append(level)
        else:
            levels[card_id] = [level]
    for card_id in sorted(levels):
        if len(levels[card_id]) > MAX_COPIES_BY_LEVEL[max(levels[card_id])]:
            problems.append(f"copies:{card_id}")
    return sorted(set(problems), key=problems.index) if problems else problems


def starter_deck(catalog: ImmortalsCatalog, rng: random.Random) -> list[str]:
    """Eight units of eight different families, drawn at sign-up: eight families at random, then one
    tier-1 unit of each at random (families without a tier-1 unit are not drawn)."""
    by_family: dict[str, list[str]] = defaultdict(list)
    for card in sorted(catalog.cards, key=lambda c: c.id):
        if card.tier == STARTER_TIER:
            by_family[card.family].append(card.id)
    families = sorted(by_family)
    if len(families) < STARTER_SIZE:
        raise ValueError(f"only {len(families)} families have a tier-1 unit: a starter deck needs 8")
    return [rng.choice(by_family[family]) for family in rng.sample(families, STARTER_SIZE)]


def starter_spells(catalog: ImmortalsCatalog) -> list[str]:
    """The spells every player knows from sign-up, in catalog order."""
    return [s.id for s in catalog.spells if s.starter]
