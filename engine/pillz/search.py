"""An exact look-ahead for the Pillz AI from round 2 on: every option valued by the chance of winning the
duel, the rest of the duel searched to its end.

The search is an expectimax over the remaining rounds: at my choices the best option, at the opponent's
a model of a reasonable player (its character equally likely among those it has left, or the one it
revealed; its pillz around a fair share f = pillz ÷ rounds left: f half the time, f − 1 and f + 1 a
quarter each; everything in the last round), at each round's draw the rules' exact odds
(`rules.matchup`: abilities, cancellation, damage, healing, refunds, drains, K.O.; the leaders'
Trésor de guerre on every lost round and Bénédiction on the first one, tracked per side). In the last round
betting everything is dominant (pillz are worth nothing after it), so only that is searched there.

From round 2 the tree is small enough (a millisecond or two with the blocks below); in round 1 it is not
(hundreds of milliseconds), so `ai.choose` uses its one-round evaluator there.

Speed: a round-2 decision resolves about a hundred thousand (character, pillz) pairs, nearly all in the
nodes one round before the last, which the root reaches in runs that differ only by my pillz. So a
round-2 root first lists every such position its options lead to (`prefetch`) and values them all in
one NumPy block (engine/pillz/blocks.py: each (character, character, bet) a row, my pillz × my bets a
table), or in one call of the C kernel that computes the same floats (engine/pillz/kernels.pyx, when
the engine is built; the blocks are its fallback and reference). A round-3 or round-4 root, a dozen
rows at most, is computed in plain floats (engine/pillz/endgame.py): NumPy's calls cost more there than
the arithmetic. The values are the same floats, from the same operations in the same order, as a plain
expectimax would give, so the AI's moves from a given generator are the same
(tests/engine/pillz/test_search.py compares with one, tests/engine/pillz/test_ai_pinned.py pins every
choice of 200 lab duels).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import add, mul
from typing import TYPE_CHECKING

from engine.pillz import endgame
from engine.pillz.endgame import DRAW as DRAW
from engine.pillz.rules import Figures, blessing_left, figures, lead_seat, leader_total
from engine.pillz.state import ROUNDS, PillzState, Play

try:
    from engine.pillz import kernels as kernels  # the tests swap it for the fallback
except ImportError:  # not built, or hidden by ENGINE_PURE=1: the NumPy blocks compute the same floats
    kernels = None  # type: ignore[assignment]
if TYPE_CHECKING:
    from engine.pillz import blocks

# (power, damage if win, heal if win, drain if win, refund if loss) for me, then the same for the foe
# (`rules.figures`, each side's war chest added to its refund)
Pair = Figures
# (round, my PV, the foe's, my pillz, the foe's, my used cards, the foe's (bit masks), what my unspent
# Bénédiction would take off my next loss, the same for the foe)
Node = tuple[int, int, int, int, int, int, int, int, int]
Bets = tuple[tuple[int, float], ...]  # (the foe's pillz, its weight)
Option = tuple[str, int, float]  # an option of a decision: (character, pillz, value)
# A node one round before the last without my pillz: (my PV, the foe's, its pillz, the used cards (bit
# masks), the unspent Bénédictions)
Family = tuple[int, int, int, int, int, int, int]


@cache
def model_bets(pillz: int, rounds: int) -> tuple[tuple[int, float], ...]:
    """The modelled opponent's pillz: a fair share, one more or one less; everything in the last round."""
    if rounds <= 1:
        return ((pillz, 1.0),)
    fair = pillz // rounds
    weights: dict[int, float] = {}
    for bet, weight in ((fair, 0.5), (max(0, fair - 1), 0.25), (min(pillz, fair + 1), 0.25)):
        weights[bet] = weights.get(bet, 0.0) + weight
    return tuple(weights.items())


# The unused characters' places for each bit mask of used ones.
_UNUSED: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(4) if not mask >> i & 1) for mask in range(16)
)


@cache
def _odds(power: int, attack_foe: int, top: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """My chance to win the round for each of my bets from 0 to `top`: attack ÷ (sum of attacks), 1/2 when
    both are 0 (the rules' draw, `rules.draw_winner`); then the chance to lose, 1 − that, for each bet."""
    wins = tuple(
        0.5 if power * bet + attack_foe == 0 else power * bet / (power * bet + attack_foe)
        for bet in range(top + 1)
    )
    return wins, tuple(1 - p for p in wins)


# For a bit mask of used characters and a character about to be used, the one left after it (the last
# round's).
_LAST_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(_UNUSED[mask | 1 << c][0] if len(_UNUSED[mask | 1 << c]) == 1 else 0 for c in range(4))
    for mask in range(16)
)


def _node(rnd: int, family: Family, pm: int) -> Node:
    """The node of `family` at the start of round `rnd` with my `pm` pillz."""
    lm, lf, pf, um, uf, sm, sf = family
    return (rnd, lm, lf, pm, pf, um, uf, sm, sf)


class _Search:
    """One decision's search: the matchups of the two line-ups, and the values found so far (a position
    reached along several paths is valued once)."""

    def __init__(self, state: PillzState, me: int, used: tuple[int, int]) -> None:
        """`used`: each side's characters already played at the root (bit masks); only the pairs of
        those still to play are computed (the others stay zeros and are never read)."""
        foe = 1 - me
        hands = state.hands
        self.max_me, self.max_foe = state.max_life[me], state.max_life[foe]
        chest_me, chest_foe = leader_total(hands[me], "war_chest"), leader_total(hands[foe], "war_chest")
        self.pairs: list[list[Pair]] = [[(0,) * 10 for _ in range(4)] for _ in range(4)]
        for i in _UNUSED[used[0]]:
            for j in _UNUSED[used[1]]:
                mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = figures(hands[me][i], hands[foe][j])
                self.pairs[i][j] = (mp, md, mh, mdr, mre + chest_me, fp, fd, fh, fdr, fre + chest_foe)
        self.flat = [pair for row in self.pairs for pair in row]  # for the C kernel
        self.i_lead = tuple(lead_seat(state.first, rnd) == me for rnd in range(ROUNDS + 1))
        self.values: dict[Node, float] = {}
        self.families: dict[Family, list[float]] = {}
        self.replies: dict[tuple[int, int, int], list[float]] = {}

    def successors(self, node: Node, cm: int, cf: int, bf: int) -> tuple[Family | None, Family | None, int]:
        """The positions after the round `cm` against `cf` betting `bf`, without my pillz: after a win,
        after a loss (None when it ends the duel by KO); then what a loss adds to my pillz after my bet
        (refunds, less the foe's drain)."""
        _, lm, lf, _, pf, um, uf, sm, sf = node
        _, md, mh, mdr, mre, _, fd, fh, fdr, fre = self.pairs[cm][cf]
        used_me, used_foe = um | 1 << cm, uf | 1 << cf
        # If I win: the foe's unspent Bénédiction is spent on this first loss. If I lose: mine is.
        lf_won = lf - (md - sf if md > sf else 0)
        lm_lost = lm - (fd - sm if fd > sm else 0)
        won = lost = None
        if lf_won > 0:
            won = (min(self.max_me, lm + mh), lf_won, max(0, pf - bf + fre - mdr), used_me, used_foe, sm, 0)
        if lm_lost > 0:
            lost = (lm_lost, min(self.max_foe, lf + fh), pf - bf, used_me, used_foe, 0, sf)
        return won, lost, mre - fdr

    def outcomes(self, node: Node, cm: int, cf: int, bf: int, my_bets: Sequence[int]) -> list[float]:
        """The round resolved with my `cm` against the foe's `cf` betting `bf`, for each of my bets (in
        increasing order): the chance of winning the duel from there (the draw at the rules' odds, then
        the rest searched)."""
        rnd, pm = node[0], node[3]
        if rnd == ROUNDS:  # nothing after this round: both outcomes are final (`my_bets` is (pm,))
            _, lm, lf, _, pf, _, _, sm, sf = node
            return [
                endgame.last_value(self.pairs[cm][cf], lm, lf, pm, pf, sm, sf, (self.max_me, self.max_foe))
            ]
        if rnd + 1 == ROUNDS:  # then the last round: `my_bets` is every bet from 0 to pm
            return self.reply(node, cm, cf, bf)
        won, lost, gain = self.successors(node, cm, cf, bf)
        pair = self.pairs[cm][cf]
        odds, rest = _odds(pair[0], pair[5] * bf, my_bets[-1])
        if rnd + 2 == ROUNDS:
            return self.before_last_rows(pm, won, lost, gain, odds, rest)
        results = []
        value = self.value
        for bm in my_bets:  # rounds still to play after the next: each outcome is a searched node
            p_win = odds[bm]
            result = 0.0
            if p_win > 0:
                result += p_win * (1.0 if won is None else value(_node(rnd + 1, won, pm - bm)))
            if p_win < 1 and lost is not None:
                result += rest[bm] * value(_node(rnd + 1, lost, max(0, pm - bm + gain)))
            results.append(result)
        return results

    def before_last_rows(
        self,
        pm: int,
        won: Family | None,
        lost: Family | None,
        gain: int,
        odds: Sequence[float],
        rest: Sequence[float],
    ) -> list[float]:
        """`outcomes` when the next round is the one before the last, for each of my bets from 0 to `pm`:
        p × won + (1 − p) × lost, the positions after the round read from their rows by my pillz left.
        That is the float the scalar loop adds up from the terms of non-zero chance: won and lost are
        finite, so a term with a chance of 0 adds 0.0 (1.0 and 0.0 stand for the KOs)."""
        won_row = [1.0] * (pm + 1) if won is None else self.before_last(won, pm)[pm::-1]
        lost_row = [0.0] * (pm + 1)
        if lost is not None:  # after my bet bm, max(0, pm − bm + gain) pillz: from pm + gain down
            values = self.before_last(lost, max(0, pm + gain))
            if gain >= 0:
                lost_row = values[gain : pm + gain + 1][::-1]
            else:
                lost_row = values[: max(0, pm + gain + 1)][::-1]
                lost_row += [values[0]] * (pm + 1 - len(lost_row))
        return list(map(add, map(mul, odds, won_row), map(mul, rest, lost_row)))

    def columns(self, keys: Sequence[Family]) -> tuple[blocks.Grid, blocks.Floats]:
        """The triples (my character, the foe's, its bet) of positions one round before the last, as
        the grid `blocks.tables` reads (in the order `blocks.lead_values` and `answer_values` read
        them), and each position's bet weights. Every such position has two characters left on each
        side; the pairs are gathered from their table by index arrays rather than a tuple per triple.
        NumPy is imported here, by the fallback only: the C kernel's processes never load it."""
        import numpy as np

        from engine.pillz import blocks

        positions = np.array(keys, dtype=np.int64)
        table = np.array(self.pairs, dtype=np.int64)
        # for each bit mask of used characters with two left, those two (else zeros: never read)
        left = np.array([u if len(u) == 2 else (0, 0) for u in _UNUSED], dtype=np.int64)
        last = np.array(_LAST_OF, dtype=np.int64)
        used_me, used_foe = positions[:, 3], positions[:, 4]
        mine, theirs = left[used_me], left[used_foe]  # (position, character)
        last_me = last[used_me[:, None], mine][:, :, None, None]
        last_foe = last[used_foe[:, None], theirs][:, None, :, None]
        bets = [blocks.pad_bets(model_bets(pf, 2)) for pf in positions[:, 2].tolist()]
        foe_bets = np.array([[bf for bf, _ in b] for b in bets], dtype=np.int64)
        grid = (
            positions[:, None, None, None, [0, 1, 2, 5, 6]],
            foe_bets[:, None, None, :],
            table[mine[:, :, None, None], theirs[:, None, :, None]],
            table[last_me, last_foe],
        )
        return grid, np.array([[w for _, w in b] for b in bets])

    def fill(self, requests: dict[Family, int]) -> None:
        """Value the positions one round before the last of `requests` (position: the most pillz of mine
        asked for) that are not yet known, all in one block."""
        keys = [key for key, top in requests.items() if len(self.families.get(key, ())) <= top]
        if not keys:
            return
        width = max(requests[key] for key in keys) + 1
        if kernels is not None:
            bets = [model_bets(key[2], 2) for key in keys]
            top, lead = (self.max_me, self.max_foe), self.i_lead[ROUNDS - 1]
            rows = kernels.before_last_values(self.flat, keys, bets, width, *top, lead)
            self.families.update(zip(keys, rows, strict=True))
            return
        from engine.pillz import blocks  # NumPy: the fallback's only

        grid, weights = self.columns(keys)
        found = blocks.tables(grid, width, (self.max_me, self.max_foe))
        values = blocks.lead_values if self.i_lead[ROUNDS - 1] else blocks.answer_values
        self.families.update(zip(keys, values(found, weights).tolist(), strict=True))

    def prefetch(self, node: Node, theirs: Sequence[int], bets: Bets) -> None:
        """Two rounds before the last: value every position the root's options lead to in one block
        (each asked for all the pillz I may have there), rather than one by one as `value` meets them."""
        requests: dict[Family, int] = {}
        pm = node[3]
        for cm in _UNUSED[node[5]]:
            for cf in theirs:
                for bf, _ in bets:
                    won, lost, gain = self.successors(node, cm, cf, bf)
                    if won is not None:
                        requests[won] = max(requests.get(won, 0), pm)
                    if lost is not None:
                        requests[lost] = max(requests.get(lost, 0), max(0, pm + gain))
        self.fill(requests)

    def before_last(self, key: Family, top: int) -> list[float]:
        """`value` of the nodes one round before the last that differ only by my pillz, for each of my
        pillz from 0 to at least `top`."""
        found = self.families.get(key)
        if found is None or len(found) <= top:
            self.fill({key: top})
            found = self.families[key]
        return found

    def reply(self, node: Node, cm: int, cf: int, bf: int) -> list[float]:
        """At a root one round before the last: the chance of winning the duel for each of my bets, my
        `cm` against the foe's `cf` betting `bf` (the last round's pair: the characters left after it)."""
        key = (cm, cf, bf)
        found = self.replies.get(key)
        if found is None:
            _, lm, lf, pm, pf, um, uf, sm, sf = node
            last = self.pairs[_LAST_OF[um][cm]][_LAST_OF[uf][cf]]
            top = (self.max_me, self.max_foe)
            found = self.replies[key] = endgame.reply_row(
                self.pairs[cm][cf], last, (lm, lf, pf, sm, sf), pm, bf, top
            )
        return found

    def value(self, node: Node) -> float:
        """The chance of winning the duel from the start of a round, my best option played."""
        rnd, lm, lf, pm, pf, um, uf, sm, sf = node
        if rnd + 1 == ROUNDS:
            return self.before_last((lm, lf, pf, um, uf, sm, sf), pm)[pm]
        found = self.values.get(node)
        if found is None:  # rounds 2 and 3 still to play
            found = self.values[node] = max(v for _, v in self.options(node, None))
        return found

    def options(self, node: Node, pending: int | None) -> list[tuple[tuple[int, int], float]]:
        """My options (character, bet) with their values when I lead or answer a revealed character; when
        the foe leads unseen, one option (-1, -1): my best reply to each of its modelled leads, averaged."""
        rnd, _, _, pm, pf, um, uf, _, _ = node
        mine = _UNUSED[um]
        theirs = _UNUSED[uf] if pending is None else (pending,)
        bets = model_bets(pf, ROUNDS - rnd + 1)
        my_bets = (pm,) if rnd == ROUNDS else range(pm + 1)
        outcomes = self.outcomes
        if rnd + 2 == ROUNDS:
            self.prefetch(node, theirs, bets)
        if self.i_lead[rnd] or pending is not None:
            share = 1.0 / len(theirs)
            found = []
            for cm in mine:
                totals = [0.0] * len(my_bets)  # summed over the foe's (character, bet) in order
                for cf in theirs:
                    for bf, w in bets:
                        results = outcomes(node, cm, cf, bf, my_bets)
                        totals = [total + w * result for total, result in zip(totals, results, strict=True)]
                found += [((cm, bm), total * share) for bm, total in zip(my_bets, totals, strict=True)]
            return found
        total = 0.0
        for cf in theirs:
            for bf, w in bets:  # my best reply to that lead
                total += w * max(max(outcomes(node, cm, cf, bf, my_bets)) for cm in mine)
        return [((-1, -1), total / len(theirs))]


def exact_values(state: PillzState, me: int) -> list[tuple[Play, float]]:
    """Every option of `me` now, with its chance of winning the duel (a draw counting `DRAW`)."""
    return [(Play(card=card, pillz=bet), v) for card, bet, v in exact_options(state, me)]


def exact_options(state: PillzState, me: int) -> list[Option]:
    """`exact_values` as plain (character, pillz, value) tuples, the AI's own form (no model per option)."""
    foe = 1 - me
    hands = state.hands
    pending: int | None = None
    if state.pending is not None:
        pending = next(j for j, f in enumerate(hands[foe]) if f.card_id == state.pending[0])
    um = sum(1 << i for i, f in enumerate(hands[me]) if f.used)
    uf = sum(1 << i for i, f in enumerate(hands[foe]) if f.used)
    if pending is not None:
        uf &= ~(1 << pending)  # the revealed card is marked used, but it fights this round
    shields = (blessing_left(hands[me], state.history, me), blessing_left(hands[foe], state.history, foe))
    root = (state.round, state.life[me], state.life[foe], state.pillz[me], state.pillz[foe], um, uf, *shields)
    found = _Search(state, me, (um, uf)).options(root, pending)
    return [(hands[me][cm].card_id, bm, v) for (cm, bm), v in found]
