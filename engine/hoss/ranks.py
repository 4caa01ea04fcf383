"""Ranked battles against the AI: the nine ranks, the opponent's deck at each rank, and what a battle pays.

Pure rules on plain values (the rulebook's "Les rangs de combat"); `services/hoss/battle/ranked.py` reads the
database and calls these. Every number that is not the rulebook's is a decision recorded in
docs/hoss/ranked.md.

Opponent decks come from the real catalog and an injected `random.Random`, using only `Random.random()`
(the one method whose sequence Python keeps stable), so a seed always gives the same deck.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.hoss.catalog import BuffCard, CreatureCard, HossCatalog, Rarity
from engine.hoss.deck import BUFFS_PER_DECK, LINES_PER_DECK, MAX_DEFENDER_LINES
from engine.hoss.economy import RANK_UNLOCK_WINS, highest_unlocked_rank
from engine.protocol import PlayerSetup

T = TypeVar("T")

PLAYABLE_WINDOW = 3  # "Seuls tes 3 rangs débloqués les plus hauts restent jouables"
TENTH_WIN = 10  # "la 10e victoire rapporte une récompense de 10 fois l'or d'une victoire"
TENTH_WIN_MULTIPLIER = 10
FAST_ROUNDS = 10  # "Une victoire en 10 manches ou moins rapporte 10 % de plus"
FAST_BONUS_PCT = 10
FLAWLESS_BONUS_PCT = 20  # "un bonus est donné si aucune de tes créatures ne meurt": decided +20 %
VOID_ROUNDS = 3  # "Un combat terminé en 3 manches ou moins ne rapporte rien" (and does not count)
MILESTONE_EVERY = 100  # "toutes les 100 victoires à un même rang, tu gagnes ce nombre de victoires en or"


@dataclass(frozen=True)
class RankSpec:
    """One row of the rulebook's table, and the opponent it means (rarities and stars are decisions)."""

    rank: int
    win_gold: int
    loss_gold: int
    top_rank: int  # the highest creature rank the opponent's lines hold: 1, 2 (Rang 2) or 3 (Maître)
    rarities: tuple[Rarity, ...]  # each opponent copy draws one of these, uniformly
    stars: tuple[int, int]  # and its stars, uniformly in this inclusive range


RANKS: tuple[RankSpec, ...] = (
    RankSpec(1, 45, 5, 1, ("basique", "argent"), (0, 2)),  # Rang 1 seulement, Basique à Argent
    RankSpec(2, 90, 10, 1, ("argent", "or"), (0, 3)),  # Rang 1 seulement, Argent à Or
    RankSpec(3, 135, 15, 2, ("argent", "or"), (1, 3)),  # Évolue jusqu'au Rang 2
    RankSpec(4, 180, 20, 2, ("or", "platine"), (1, 4)),  # Évolue jusqu'au Rang 2, cartes plus rares
    RankSpec(5, 225, 25, 3, ("or", "platine"), (3, 5)),  # Évolue jusqu'au Maître
    RankSpec(6, 270, 30, 1, ("divin",), (5, 5)),  # Rang 1 Divin 5★
    RankSpec(7, 315, 35, 2, ("diamant", "divin"), (4, 5)),  # Rang 2 Diamant à Divin
    RankSpec(8, 360, 40, 2, ("divin",), (5, 5)),  # Rang 2 Divin 5★
    RankSpec(9, 405, 45, 3, ("divin",), (5, 5)),  # Rang Max: tout en Divin 5★
)
MAX_RANK = len(RANKS)


def rank_spec(rank: int) -> RankSpec:
    if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= MAX_RANK:
        raise ValueError(f"battle rank must be 1..{MAX_RANK}, got {rank!r}")
    return RANKS[rank - 1]


# --- unlocking --------------------------------------------------------------------------------------------


def highest_unlocked(wins_by_rank: Mapping[int, int]) -> int:
    """Rang 1 is always open; rank r+1 opens after 10 wins at rank r (the boosters' tier uses the same)."""
    return highest_unlocked_rank(wins_by_rank)


def playable_ranks(wins_by_rank: Mapping[int, int]) -> tuple[int, ...]:
    """The 3 highest unlocked ranks (all of them while fewer are open): unlocking Rang 4 closes Rang 1."""
    top = highest_unlocked(wins_by_rank)
    return tuple(range(max(1, top - PLAYABLE_WINDOW + 1), top + 1))


# --- the opponent -----------------------------------------------------------------------------------------


def _pick(items: Sequence[T], rnd: random.Random) -> T:
    return items[int(rnd.random() * len(items))]


def _shuffled(items: Sequence[T], rnd: random.Random) -> list[T]:
    """Fisher-Yates on `Random.random()` only."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def _copy(card: str, spec: RankSpec, rnd: random.Random) -> dict[str, Any]:
    rarity = _pick(spec.rarities, rnd)
    low, high = spec.stars
    stars = low + int(rnd.random() * (high - low + 1))
    return {"card": card, "rarity": rarity, "stars": stars, "holo": False}


OpponentTables = tuple[list[CreatureCard], dict[str, list[CreatureCard]], list[str]]
_tables: list[Any] = []  # the cards of the last catalog seen (kept, so never another's) and its tables


def _opponent_tables(catalog: HossCatalog) -> OpponentTables:
    """The catalog's Rang 1 creatures, each line's creatures and the buff ids, each in id order: the same
    for every opponent drawn from one catalog (a lab draws a thousand), so built once per catalog."""
    if _tables and _tables[0] is catalog.cards:
        tables: OpponentTables = _tables[1]
        return tables
    creatures = sorted((c for c in catalog.cards if isinstance(c, CreatureCard)), key=lambda c: c.id)
    by_line: dict[str, list[CreatureCard]] = {}
    for card in creatures:
        by_line.setdefault(card.line, []).append(card)
    buff_ids = sorted(c.id for c in catalog.cards if isinstance(c, BuffCard))
    tables = ([c for c in creatures if c.rank == 1], by_line, buff_ids)
    _tables[:] = (catalog.cards, tables)
    return tables


def opponent_setup(
    catalog: HossCatalog, rank: int, rnd: random.Random, *, seat: int = 1, player_id: int = 0
) -> PlayerSetup:
    """The AI's deck at `rank`: 6 different lines (at most 2 Défenseurs) and 2 different buffs.

    Lines are drawn uniformly (a shuffle of every line, skipping a third Défenseur); each line holds its
    cards up to the rank's `top_rank` (both Rang 2 paths of a two-path line, and each path's Maître), every
    copy with its own rarity and stars; buffs likewise. Never holo. Draw order: the line shuffle, then per
    line its cards in id order (rarity, stars), then the buff shuffle and the two buffs' copies.
    """
    spec = rank_spec(rank)
    firsts, by_line, buff_ids = _opponent_tables(catalog)
    chosen: list[CreatureCard] = []
    defenders = 0
    for first in _shuffled(firsts, rnd):
        if first.cls == "defenseur":
            if defenders == MAX_DEFENDER_LINES:
                continue
            defenders += 1
        chosen.append(first)
        if len(chosen) == LINES_PER_DECK:
            break
    lines = []
    for first in chosen:
        cards = [c.id for c in by_line[first.line] if c.rank <= spec.top_rank]
        lines.append({"copies": [_copy(card, spec, rnd) for card in cards]})
    buffs = [_copy(card, spec, rnd) for card in _shuffled(buff_ids, rnd)[:BUFFS_PER_DECK]]
    deck = tuple(c["card"] for line in lines for c in line["copies"]) + tuple(b["card"] for b in buffs)
    return PlayerSetup(seat=seat, player_id=player_id, deck=deck, extra={"lines": lines, "buffs": buffs})


# --- rewards ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reward:
    """What one finished battle pays. `counted` False: 3 rounds or fewer, neither a win nor a loss, 0 gold.

    A win pays `base` (the rank's win gold, ×10 for the 10th win at the rank) plus each bonus, every bonus a
    percentage of that same base, rounded half up to the gold: they add up, they do not compound.
    """

    counted: bool
    won: bool
    base: int
    tenth_win: bool
    fast_bonus: int
    flawless_bonus: int

    @property
    def total(self) -> int:
        return self.base + self.fast_bonus + self.flawless_bonus


def _percent(amount: int, pct: int) -> int:
    """`pct` % of `amount`, rounded half up (45 x 10 % = 4.5 -> 5)."""
    return (amount * pct * 2 + 100) // 200


def battle_reward(rank: int, *, won: bool, rounds: int, deaths: int, wins_before: int) -> Reward:
    """The gold of a battle at `rank` that lasted `rounds` rounds, where `deaths` of the player's creatures
    died, when the player had `wins_before` counted wins at that rank. A draw is not a win (`won` False)."""
    spec = rank_spec(rank)
    if rounds <= VOID_ROUNDS:
        return Reward(False, won, 0, False, 0, 0)
    if not won:
        return Reward(True, False, spec.loss_gold, False, 0, 0)
    tenth = wins_before + 1 == TENTH_WIN
    base = spec.win_gold * (TENTH_WIN_MULTIPLIER if tenth else 1)
    fast = _percent(base, FAST_BONUS_PCT) if rounds <= FAST_ROUNDS else 0
    flawless = _percent(base, FLAWLESS_BONUS_PCT) if deaths == 0 else 0
    return Reward(True, True, base, tenth, fast, flawless)


def milestone_gold(wins: int) -> int:
    """Gold of the milestone reached by the `wins`-th win at a rank (100th: 100, 800th: 800), else 0."""
    return wins if wins > 0 and wins % MILESTONE_EVERY == 0 else 0


__all__ = [
    "FAST_BONUS_PCT",
    "FAST_ROUNDS",
    "FLAWLESS_BONUS_PCT",
    "MAX_RANK",
    "MILESTONE_EVERY",
    "PLAYABLE_WINDOW",
    "RANKS",
    "RANK_UNLOCK_WINS",
    "TENTH_WIN",
    "TENTH_WIN_MULTIPLIER",
    "VOID_ROUNDS",
    "RankSpec",
    "Reward",
    "battle_reward",
    "highest_unlocked",
    "milestone_gold",
    "opponent_setup",
    "playable_ranks",
    "rank_spec",
]
