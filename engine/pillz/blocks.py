"""The exact search's last two rounds computed in NumPy blocks: for many (my character, the foe's, its bet)
triples at once, the chance of winning the duel for each of my pillz and each of my bets.

A round-2 decision values about fifty positions one round before the last (several hundred triples, each
a table of my pillz × my bets), and the same products and sums one at a time in CPython cost about 13 ms
per lab duel. Here the triples are a grid of integers (`Grid`) and every value is computed by
whole-array operations. When the engine is built, `search` calls the C kernel of
engine/pillz/kernels.pyx instead, which computes these same floats element by element: this module is its
fallback and reference.

The values are bitwise those of the scalar search: float64 `*`, `+`, `-` and `/` in NumPy are the same
IEEE operations as CPython's, each applied to the same operands (int64 products and quotients of
integers far below 2**53 are exact before the division is rounded, as CPython's `int / int`). What a
reduction adds, it adds in the scalar order by an explicit loop, never by `np.sum`; `max` only reads
values (none is a NaN or a −0.0), so which equal one wins cannot matter.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from engine.pillz.endgame import DRAW

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

# The triples of a block as arrays that broadcast to (position, my character, the foe's, its bet), each
# with a last axis of figures: the position (my PV, the foe's, its pillz, the Bénédictions still
# unspent); the foe's bets; this round's pair and the last round's (the characters each side has left
# after it): power, damage, heal, drain and refund (war chest included) for me, then the same for the
# foe.
Grid = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
BETS = 3  # the modelled foe's bets one round before the last, padded (`pad_bets`)


def pad_bets(bets: tuple[tuple[int, float], ...]) -> tuple[tuple[int, float], ...]:
    """The foe's bets padded to `BETS` with weight 0.0 after the real ones (a copy of the first, so its
    values are finite): a padded term adds 0.0 × a finite value, 0.0, to a non-negative total, which
    leaves it unchanged."""
    return bets + ((bets[0][0], 0.0),) * (BETS - len(bets))


def share(attack: Ints, attack_foe: Ints) -> Floats:
    """My chance to win a round: attack ÷ (sum of attacks), 1/2 when both are 0 (the rules' draw)."""
    total = attack + attack_foe
    chance: Floats = np.full(total.shape, 0.5)
    np.divide(attack, total, out=chance, where=total != 0)
    return chance


def end(life_me: Ints, life_foe: Ints) -> Floats:
    """The duel's value once no round is left: a win, a draw (`DRAW`) or a loss by the PV compared."""
    return np.where(life_me == life_foe, DRAW, np.where(life_me > life_foe, 1.0, 0.0))


# One round's matchup as whole arrays: (power, damage, heal) for me, then the same for the foe
Matchups = tuple[Ints, Ints, Ints, Ints, Ints, Ints]


def last_round(
    pair: Matchups, lm: Ints, lf: Ints, pf: Ints, pillz: Ints, sm: Ints, sf: Ints, top: tuple[int, int]
) -> Floats:
    """The last round from its start, `pair` fighting, with `pillz` of mine against the foe's `pf`, both
    betting everything: p × won + (1 − p) × lost, the outcomes final (a KO, else the PV compared);
    `sm`, `sf`: what each side's unspent Bénédiction takes off its loss; `top`: each side's maximum PV."""
    mp, md, mh, fp, fd, fh = pair
    max_me, max_foe = top
    lf_won = lf - np.where(md > sf, md - sf, 0)
    lm_lost = lm - np.where(fd > sm, fd - sm, 0)
    won = np.where(lf_won <= 0, 1.0, end(np.minimum(max_me, lm + mh), lf_won))
    lost = np.where(lm_lost <= 0, 0.0, end(lm_lost, np.minimum(max_foe, lf + fh)))
    odds = share(mp * pillz, fp * pf)
    return odds * won + (1.0 - odds) * lost


def _laid_out(values: Floats, width: int) -> Floats:
    """`values` (by my pillz left from 0 to `width` − 1 on the last axis) laid out for `_reads`:
    reversed (column j holds the value at width − 1 − j pillz), then width − 1 columns of 0.0."""
    laid = np.zeros((*values.shape[:-1], 2 * width - 1))
    laid[..., :width] = values[..., ::-1]
    return laid


def _reads(laid: Floats, width: int) -> Floats:
    """For each triple, my pillz pm and my bet b (both below `width`): the laid-out value at pm − b
    pillz (plus the row's shift), 0.0 where b > pm. A view of sliding windows: nothing is copied."""
    windows = np.lib.stride_tricks.sliding_window_view(laid, width, axis=-1)
    return windows[..., ::-1, :]


# For each triple, arranged (position, my character, the foe's, its bet): my chance to win this round and
# to lose it for each of my bets (then an axis of 1 for my pillz), then the value after a win and after a
# loss for each of my bets and pillz (0.0 where the bet exceeds my pillz). My bets come before my pillz:
# a `max` over bets then compares rows of contiguous floats (NumPy is slow reducing a short last axis).
Tables = tuple[Floats, Floats, Floats, Floats]


def tables(grid: Grid, width: int, top: tuple[int, int]) -> Tables:
    """The triples of `grid` one round before the last, for each of my pillz pm and bets b below
    `width`. `top`: each side's maximum PV (the cap of healing).

    The last round after this one depends on my bet only through the pillz I have left, so it is
    computed once per triple and pillz left (a row after a win and one after a loss), then read for
    every (pillz, bet) through sliding windows: at pm − b after a win, at max(0, pm − b + refunds − the
    foe's drain) after a loss. Each figure keeps the axes it varies on (a position's PV, a pair's
    damage), so the work before the tables is done once per position or pair, not per triple."""
    position, foe_bets, pair, last_pair = grid
    lm, lf, pf, sm, sf = (position[..., i, None] for i in range(5))
    bf = foe_bets[..., None]
    mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = (pair[..., i, None] for i in range(10))
    lp, ld, lh, _, _, lfp, lfd, lfh, _, _ = (last_pair[..., i, None] for i in range(10))
    last = (lp, ld, lh, lfp, lfd, lfh)
    max_me, max_foe = top
    bets = np.arange(width)
    gain = mre - fdr
    # If I win: the foe's unspent Bénédiction is spent on this first loss. If I lose: mine is.
    lf_won = lf - np.where(md > sf, md - sf, 0)
    lm_lost = lm - np.where(fd > sm, fd - sm, 0)
    zero = np.zeros_like(sm)
    lm_won, pf_won = np.minimum(max_me, lm + mh), np.maximum(0, pf - bf + fre - mdr)
    won = np.where(lf_won > 0, last_round(last, lm_won, lf_won, pf_won, bets, sm, zero, top), 1.0)
    # after a loss, column r holds the value at max(0, r + refunds − the foe's drain) pillz
    lf_lost, left = np.minimum(max_foe, lf + fh), np.maximum(0, bets + gain)
    lost = np.where(lm_lost > 0, last_round(last, lm_lost, lf_lost, pf - bf, left, zero, sf, top), 0.0)
    won_read = _reads(_laid_out(won, width), width).swapaxes(-1, -2)
    lost_read = _reads(_laid_out(lost, width), width).swapaxes(-1, -2)
    odds = share(mp * bets, fp * bf)[..., None]
    return odds, 1.0 - odds, won_read, lost_read


def _slice(found: Tables, j: int, k: int) -> Floats:
    """The values of the triples of the foe's character `j` and bet `k`: p × won + (1 − p) × lost, shaped
    (position, my character, my bet, my pillz) in that order in memory, the block of one (j, k) at a
    time (a whole block of every triple did not fit the caches)."""
    odds, rest, won, lost = (part[:, :, j, k] for part in found)
    values: Floats = np.multiply(odds, won, order="C")
    values += rest * lost
    return values


def _best(values: Floats) -> Floats:
    """The most of `values` (position, my character, my bet, my pillz) over my characters and bets, for
    each position and pillz: the characters' rows compared first, then the bets."""
    best = values[:, 0]
    for i in range(1, values.shape[1]):
        best = np.maximum(best, values[:, i])
    found: Floats = best.max(axis=1)
    return found


def lead_values(found: Tables, weights: Floats) -> Floats:
    """I lead one round before the last: for each position and each of my pillz, my best option's total
    over the foe's (character, bet) in order, times the share of a character. The best total × share
    is the best option (multiplying by a positive number keeps the order of floats), and a bet above
    my pillz totals 0.0, below or equal to every option. The first term is the total (0.0 + x is x)."""
    theirs, bets = found[0].shape[2:4]
    totals: Floats | None = None
    for j in range(theirs):
        for k in range(bets):
            term = _slice(found, j, k)
            term *= weights[:, k, None, None, None]
            if totals is None:
                totals = term
            else:
                totals += term
    assert totals is not None
    values: Floats = _best(totals) * (1.0 / theirs)
    return values


def answer_values(found: Tables, weights: Floats) -> Floats:
    """The foe leads one round before the last: my best reply to each of its (character, bet), weighted
    in order, for each position and each of my pillz; the best of all my (character, bet)."""
    theirs, bets = found[0].shape[2:4]
    totals: Floats | None = None
    for j in range(theirs):
        for k in range(bets):
            term = _best(_slice(found, j, k)) * weights[:, k, None]
            if totals is None:
                totals = term
            else:
                totals += term
    assert totals is not None
    values: Floats = totals / theirs
    return values
