"""Fusion rules: the chance of each fusion, which copy is sacrificed, and how a chain is paired.

Pure on purpose: the service loads the copies and writes the outcome inside one write unit, but every
decision (who survives, who is lost, the odds, what needs the player's confirmation) is taken here, so
it can be tested exhaustively and reused by any front end. Decisions are explained in
docs/hoss/collection.md; the rulebook section is "Fusion et vente".
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import DomainError
from engine.hoss.bonus import MAX_STARS
from engine.hoss.catalog import RARITIES, Rarity

# Chance (%) to reach each star, keyed by the star the fusion aims for: "vers 1★ 80 %, 2★ 65 %...".
BASE_CHANCE_PCT: dict[int, int] = {1: 80, 2: 65, 3: 45, 4: 25, 5: 12}
# "+2 % par rang de rareté de la carte sacrifiée": Basique is rank 0 (+0 %), Divin rank 5 (+10 %).
PER_RARITY_RANK_PCT = 2
RARITY_RANK: dict[Rarity, int] = {rarity: rank for rank, rarity in enumerate(RARITIES)}
# One request fuses at most this many copies (50 pairs): a bound on one write unit's work.
MAX_FUSION_COPIES = 100

CONFIRM_FIVE_AS_FOUR = "hoss.error.fusion.confirm_five_as_four"
CONFIRM_RARER_SACRIFICED = "hoss.error.fusion.confirm_rarer_sacrificed"
# Why "fuse this card" has nothing to select (the front end's BadInput keys).
NOTHING_FIVE_AS_FOUR = "hoss.error.fuse.no_five_as_four"
NOTHING_TO_FUSE = "hoss.error.fuse.nothing"
# Selection levels of "fuse this card": every level below 5★ (a chain), one level, or a 5★ as a 4★.
SELECTION_LEVELS = ("a", "0", "1", "2", "3", "4", "f")


class FusionError(DomainError):
    """A fusion the rules refuse; `key` names why (hoss.error.fusion.*)."""


class FusionNeedsConfirmation(FusionError):
    """The fusion is legal but loses more than the player may expect; rerun it with confirmation.

    `key` is the first reason; `reasons` lists them all so a front end can explain before asking.
    """

    def __init__(self, plan: FusionPlan) -> None:
        first = plan.confirmations[0]
        super().__init__(first[0], **first[1])
        self.plan = plan


@dataclass(frozen=True)
class FusionCopy:
    """One owned copy as the rules see it; `locked` means a locked deck holds it."""

    id: int
    card: str
    rarity: Rarity
    stars: int
    holo: bool = False
    locked: bool = False

    @property
    def rank(self) -> int:
        return RARITY_RANK[self.rarity]


@dataclass(frozen=True)
class FusionPair:
    survivor: FusionCopy
    sacrificed: FusionCopy
    target_stars: int  # the survivor's stars on success
    chance_pct: int
    five_as_four: bool = False  # a 5★ stands in as a 4★ (lost even on failure: confirmed first)

    @property
    def rarer_sacrificed(self) -> bool:
        """Only when the survivor is a holo less rare than its partner (a holo is never sacrificed)."""
        return self.sacrificed.rank > self.survivor.rank


@dataclass(frozen=True)
class FusionPlan:
    pairs: tuple[FusionPair, ...]

    @property
    def confirmations(self) -> list[tuple[str, dict[str, object]]]:
        """What the player must confirm before this plan runs: (message key, params), in pair order."""
        reasons: list[tuple[str, dict[str, object]]] = []
        for pair in self.pairs:
            if pair.five_as_four:
                reasons.append(
                    (CONFIRM_FIVE_AS_FOUR, {"copy": pair.sacrificed.id, "chance": pair.chance_pct})
                )
            if pair.rarer_sacrificed:
                reasons.append((CONFIRM_RARER_SACRIFICED, {"copy": pair.sacrificed.id}))
        return reasons


def fusion_chance_pct(target_stars: int, sacrificed: Rarity) -> int:
    """Chance in % that a fusion aiming at `target_stars` succeeds: base + 2 per rarity rank sacrificed."""
    if target_stars not in BASE_CHANCE_PCT:
        raise ValueError(f"no fusion reaches {target_stars} stars")
    return BASE_CHANCE_PCT[target_stars] + PER_RARITY_RANK_PCT * RARITY_RANK[sacrificed]


def roll(rng: random.Random, chance_pct: int) -> bool:
    """One fusion's own roll; only `Random.random()` is used (stable across Python versions)."""
    return rng.random() * 100 < chance_pct


def _survival_order(copy: FusionCopy) -> tuple[bool, int, bool, int]:
    """Who survives first: holos (never sacrificed), then rarer, then locked (cannot be sacrificed),
    then the older copy (lower id), so the same selection always gives the same plan."""
    return (not copy.holo, -copy.rank, not copy.locked, copy.id)


def _pairing_order(copy: FusionCopy) -> tuple[int, bool, bool, int]:
    return (-copy.rank, not copy.holo, not copy.locked, copy.id)


def _pair(
    survivor: FusionCopy, sacrificed: FusionCopy, target: int, five_as_four: bool = False
) -> FusionPair:
    if sacrificed.holo:
        raise FusionError("hoss.error.fusion.holo", copy=sacrificed.id)
    if sacrificed.locked:
        raise FusionError("hoss.error.fusion.locked", copy=sacrificed.id)
    chance = fusion_chance_pct(target, sacrificed.rarity)
    return FusionPair(survivor, sacrificed, target, chance, five_as_four)


def _five_as_four(copies: Sequence[FusionCopy]) -> FusionPair | None:
    """Two copies of one card, a 5★ and a 4★: the 5★ stands in as a 4★ if the 4★ is rarer."""
    first, second = copies
    if first.card != second.card or {first.stars, second.stars} != {MAX_STARS, MAX_STARS - 1}:
        return None
    five, four = (first, second) if first.stars == MAX_STARS else (second, first)
    if four.rank <= five.rank:
        raise FusionError("hoss.error.fusion.five_not_less_rare", copy=five.id)
    return _pair(four, five, MAX_STARS, five_as_four=True)


def plan_fusion(copies: Sequence[FusionCopy]) -> FusionPlan:
    """Pair the selected copies; raises `FusionError` naming the first problem.

    Two copies: one fusion (or the 5★-as-4★ fusion). More: a chain. Copies are grouped by (card, stars);
    each group must be even. In a group of 2n, the n copies first in survival order survive and the n
    others are sacrificed; survivors and sacrificed copies are each sorted by rarity and paired in that
    order, so the rarest survivor meets the rarest sacrificed copy (the best chance) and every pair
    sacrifices its less rare copy whenever the group allows it. No cascade: a survivor that gains a star
    does not fuse again in the same chain ("toutes les fusions partent d'un coup").
    """
    if len(copies) < 2:
        raise FusionError("hoss.error.fusion.too_few")
    if len(copies) > MAX_FUSION_COPIES:
        raise FusionError("hoss.error.fusion.too_many", maximum=MAX_FUSION_COPIES)
    seen: set[int] = set()
    for copy in copies:
        if copy.id in seen:
            raise FusionError("hoss.error.fusion.duplicate", copy=copy.id)
        seen.add(copy.id)
    if len(copies) == 2:
        special = _five_as_four(copies)
        if special is not None:
            return FusionPlan((special,))
        first, second = copies
        if first.card != second.card:
            raise FusionError("hoss.error.fusion.not_same_card")
        if first.stars != second.stars:
            raise FusionError("hoss.error.fusion.not_same_stars", first=first.stars, second=second.stars)
    groups: dict[tuple[str, int], list[FusionCopy]] = defaultdict(list)
    for copy in copies:
        groups[copy.card, copy.stars].append(copy)
    pairs: list[FusionPair] = []
    for (card, stars), group in sorted(groups.items()):
        if stars >= MAX_STARS:
            raise FusionError("hoss.error.fusion.max_stars", card=card)
        if len(group) % 2:
            raise FusionError("hoss.error.fusion.odd_count", card=card, stars=stars, count=len(group))
        ranked = sorted(group, key=_survival_order)
        half = len(ranked) // 2
        survivors = sorted(ranked[:half], key=_pairing_order)
        sacrificed = sorted(ranked[half:], key=_pairing_order)
        pairs.extend(_pair(s, b, stars + 1) for s, b in zip(survivors, sacrificed, strict=True))
    return FusionPlan(tuple(pairs))


# --- "fuse this card": which of a card's copies a request selects -------------------------------------------


def _level_selection(group: Sequence[FusionCopy]) -> list[FusionCopy]:
    """As many pairs as the rules allow in one star level: the best copies survive, and each pair sacrifices
    one of the least valuable copies that may be sacrificed (never a holo nor a locked copy)."""
    ranked = sorted(group, key=_survival_order)
    for pairs in range(len(ranked) // 2, 0, -1):
        survivors = ranked[:pairs]
        free = [c for c in ranked[pairs:] if not c.holo and not c.locked]
        if len(free) >= pairs:
            return survivors + free[-pairs:]
    return []


def fusion_selection(copies: Sequence[FusionCopy], level: str) -> list[int]:
    """The copies (of one card) that "fuse this card" sends to `plan_fusion`; empty when nothing fuses.

    `level` is "a" (every star level below 5★, a chain), "0".."4" (one level), or "f" (a 5★ standing in as a
    4★: the rarest 4★ and the least rare 5★ that may be sacrificed). `plan_fusion` still pairs the result
    and refuses what the rules refuse.
    """
    if level not in SELECTION_LEVELS:
        raise ValueError(f"unknown fusion selection level: {level!r}")
    if level == "f":
        fours = sorted((c for c in copies if c.stars == MAX_STARS - 1), key=_survival_order)
        fives = [c for c in copies if c.stars == MAX_STARS and not c.holo and not c.locked]
        if not fours or not fives:
            return []
        five = min(fives, key=lambda c: (c.rank, -c.id))
        return [five.id, fours[0].id]
    levels = range(MAX_STARS) if level == "a" else [int(level)]
    chosen: list[FusionCopy] = []
    for stars in levels:
        chosen += _level_selection([c for c in copies if c.stars == stars])
    return [c.id for c in chosen]


def empty_selection_reason(level: str) -> str:
    """The message key for a `fusion_selection` that came back empty."""
    return NOTHING_FIVE_AS_FOUR if level == "f" else NOTHING_TO_FUSE


def fusable(copies: Sequence[FusionCopy]) -> dict[str, Counter[int]]:
    """Per card id, how many copies each star level holds, for cards with at least one possible fusion
    (two copies at one level below 5★, or a 5★ with a 4★)."""
    by_card: dict[str, Counter[int]] = {}
    for copy in copies:
        by_card.setdefault(copy.card, Counter())[copy.stars] += 1
    return {
        card: levels
        for card, levels in by_card.items()
        if any(n >= 2 for s, n in levels.items() if s < MAX_STARS)
        or (levels[MAX_STARS] and levels[MAX_STARS - 1])
    }


__all__ = [
    "BASE_CHANCE_PCT",
    "MAX_FUSION_COPIES",
    "NOTHING_FIVE_AS_FOUR",
    "NOTHING_TO_FUSE",
    "PER_RARITY_RANK_PCT",
    "RARITY_RANK",
    "SELECTION_LEVELS",
    "FusionCopy",
    "FusionError",
    "FusionNeedsConfirmation",
    "FusionPair",
    "FusionPlan",
    "empty_selection_reason",
    "fusable",
    "fusion_chance_pct",
    "fusion_selection",
    "plan_fusion",
    "roll",
]
