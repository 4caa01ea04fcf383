"""The one-round evaluator's outlook (`ai.evaluate`) over whole arrays: the chance of winning the duel once
this round is over, for every (my character, the foe's) of a decision and every (the foe's bet, my bet).

Two or more rounds left: the rest is modelled as rounds where any kept character meets any opposing one
(equally likely) and each side bets the same share of its pillz, so a round's winning chance is the
power × pillz ratio. Summing the rounds' net damage (mean and variance) gives the final PV margin as a
normal law; the chance is that of a margin of at least 1 PV (a draw is not a win). One round left:
computed exactly, both sides betting everything (pillz are worth nothing after it). None left: the PV
compared.

A decision asks for about 2,000 of these chances; one at a time in CPython they were a quarter of a lab
duel. The values are bitwise those of the scalar formulas: the same IEEE operations on the same operands
in the same order (the moments' sums by an explicit loop over the pairs of characters, as the scalar
loop added them), and `math.erf` itself applied to each margin. When the engine is built, `ai` calls the
C kernel of engine/pillz/kernels.pyx instead (the same floats, C's `erf` being the one `math.erf`
calls): this module is its fallback and reference.
"""

from __future__ import annotations

import math

import numpy as np

from engine.pillz.blocks import Floats, Ints, Matchups, end, last_round, share
from engine.pillz.rules import figures, stats
from engine.pillz.state import Fighter

SPREAD = 1.0  # added to the variance of the final PV margin: integer PV, a model's error
TIE = 0.5  # a draw is not a win: the margin must reach 1 PV


def matchups(fights: list[list[tuple[Fighter, Fighter]]]) -> tuple[Ints, ...]:
    """The round's figures of each (my character, the foe's) of `fights`, on the grid's first two axes:
    my power, damage, heal, drain and refund, then the foe's (`rules.matchup` both ways)."""
    found = [[figures(mine, theirs) for mine, theirs in row] for row in fights]
    table = np.array(found, dtype=np.int64)[:, :, None, None, :]
    return tuple(table[..., i] for i in range(10))


def _column(values: list[list[int]], axis: int) -> Ints:
    """`values` (one list per character of the grid's `axis`, 0 mine or 1 the foe's, each over the
    characters kept) shaped (my kept, the foe's kept, mine, theirs, bet, pillz): the kept characters
    on the first two axes, where `moments` reads each pair as one contiguous slice."""
    shape = [1, 1, 1, 1, 1, 1]
    shape[axis] = len(values[0])
    shape[2 + axis] = len(values)
    return np.array(values, dtype=np.int64).T.reshape(shape)


class Outlooks:
    """For each of my characters played now (axis 0 of the grid) and each of the foe's (axis 1): the
    characters each side keeps for the rounds after this one, and the duel's value after it."""

    def __init__(
        self, kept: list[list[Fighter]], theirs: list[list[Fighter]], max_me: int, max_foe: int
    ) -> None:
        self.top = (max_me, max_foe)
        self.rounds = len(kept[0])
        mine, foes = [stats(k) for k in kept], [stats(t) for t in theirs]
        self.mine = (
            _column([[p for p, _ in s] for s in mine], 0),
            _column([[d for _, d in s] for s in mine], 0),
        )
        self.theirs = (
            _column([[p for p, _ in s] for s in foes], 1),
            _column([[d for _, d in s] for s in foes], 1),
        )
        self.last: Matchups | None = None
        if self.rounds == 1:
            mp, md, mh, _, _, fp, fd, fh, _, _ = matchups([[(k[0], t[0]) for t in theirs] for k in kept])
            self.last = (mp, md, mh, fp, fd, fh)

    def moments(self, p_mine: Ints, p_foe: Ints) -> tuple[Floats, Floats]:
        """Mean and variance of the net damage of the rounds left (mine dealt minus mine taken), summed
        over the pairs of kept characters in the scalar loop's order. Every pair's terms are computed
        at once on the two first axes (a few calls on whole arrays rather than a dozen per pair)."""
        powers, damages = self.mine
        foe_powers, foe_damages = self.theirs
        won = share(powers * p_mine, foe_powers * p_foe)
        dealt, taken = won * damages, (1.0 - won) * foe_damages
        net, square = dealt - taken, dealt * damages + taken * foe_damages
        mean: Floats = np.zeros(())
        second: Floats = np.zeros(())
        for i in range(powers.shape[0]):
            for j in range(foe_powers.shape[1]):
                mean = mean + net[i, j]
                second = second + square[i, j]
        pairs = powers.shape[0] * foe_powers.shape[1]
        mean = mean / pairs
        variance = np.maximum(0.0, second / pairs - mean * mean)
        return self.rounds * mean, self.rounds * variance

    def chance(
        self, me: Ints, foe: Ints, p_mine: Ints, p_foe: Ints, shield_me: Ints, shield_foe: Ints
    ) -> Floats:
        """The chance of winning the duel after this round; `shield_*`: what a side's unspent
        Bénédiction would take off its next lost round."""
        if self.rounds == 0:
            found = end(me, foe)
        elif self.last is not None:
            found = last_round(self.last, me, foe, p_foe, p_mine, shield_me, shield_foe, self.top)
        else:
            mean, variance = self.moments(p_mine, p_foe)
            margin = me - foe + shield_me - shield_foe + mean - TIE
            scaled = margin / np.sqrt(2.0 * (variance + SPREAD))
            erf = np.array(list(map(math.erf, scaled.ravel().tolist()))).reshape(scaled.shape)
            found = 0.5 * (1.0 + erf)
        chances: Floats = np.where(foe <= 0, 1.0, np.where(me <= 0, 0.0, found))
        return chances


Position = tuple[int, int, int, int, int, int, int, int, int, int]


def totals(
    position: Position,
    mine: list[Fighter],
    candidates: list[Fighter],
    kept: list[list[Fighter]],
    kept_foe: list[list[Fighter]],
    bets: list[tuple[int, float]],
) -> list[list[float]]:
    """`ai.options_now`'s totals by (my character, my bet) in NumPy: the fallback of the C kernel
    (engine/pillz/kernels.pyx) and its reference. `position`: my PV, the foe's, the maximum PVs, the
    pillz, the unspent Bénédictions, the war chests (mine, then the foe's)."""
    life_me, life_foe, max_me, max_foe, p_me, p_foe, shield_me, shield_foe, chest_me, chest_foe = position
    outlook = Outlooks(kept, kept_foe, max_me, max_foe)
    mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = matchups([[(c, o) for o in candidates] for c in mine])
    q = np.array([bet for bet, _ in bets])[None, None, :, None]
    b = np.arange(p_me + 1)[None, None, None, :]
    p = share(mp * b, fp * q)
    won = outlook.chance(
        np.minimum(max_me, life_me + mh),
        np.maximum(0, life_foe - np.maximum(0, md - shield_foe)),
        p_me - b,
        np.maximum(0, p_foe - q + fre + chest_foe - mdr),
        np.array(shield_me),
        np.array(0),
    )
    lost = outlook.chance(
        np.maximum(0, life_me - np.maximum(0, fd - shield_me)),
        np.minimum(max_foe, life_foe + fh),
        np.maximum(0, p_me - b + mre + chest_me - fdr),
        p_foe - q,
        np.array(0),
        np.array(shield_foe),
    )
    # p × won + (1 − p) × lost is what adding only the terms of non-zero chance gives: both are finite.
    values = p * won + (1.0 - p) * lost
    weight = 1.0 / len(candidates)
    totals: Floats = np.zeros((len(mine), p_me + 1))
    for o in range(len(candidates)):
        for k, (_, w) in enumerate(bets):
            totals = totals + (weight * w) * values[:, o, k]
    rows: list[list[float]] = totals.tolist()
    return rows
