"""An exact look-ahead for the Pillz AI from round 2 on: every option valued by the chance of winning the
duel, the rest of the duel searched to its end.

The search is an expectimax over the remaining rounds: at my choices the best option, at the opponent's
a model of a reasonable player (its character equally likely among those it has left, or the one it
revealed; its pillz around a fair share f = pillz ÷ rounds left: f half the time, f − 1 and f + 1 a
quarter each; everything in the last round), at each round's draw the rules' exact odds
(`rules.matchup`: abilities, cancellation, damage, healing, refunds, drains, K.O.; the leaders'
Trésor de guerre on every lost round and Bénédiction on the first one, tracked per side). In the last round
betting everything is dominant (pillz are worth nothing after it), so only that is searched there.

From round 2 the tree is small enough (a few tens of milliseconds in CPython); in round 1 it is not
(hundreds of milliseconds), so `ai.choose` uses its one-round evaluator there.

Speed: a round-2 decision resolves about a hundred thousand (character, pillz) pairs, so the inner loop
(`outcomes`) takes everything that does not depend on my bet out of the loop over my bets, and the last
round, where one character is left on each side and both bet everything, is a single cached resolution
(`last`) rather than a search node. The values are the same floats, summed in the same order, as a
plain expectimax over `resolve` would give (tests/engine/pillz/test_search.py checks it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import repeat

from engine.pillz.rules import blessing_left, lead_seat, leader_total, matchup
from engine.pillz.state import ROUNDS, PillzState, Play

DRAW = 0.25  # a draw's worth, between a loss (0) and a win (1): draws do not climb ladders

# (power, damage if win, heal if win, drain if win, refund if loss) for me, then the same for the foe
Pair = tuple[int, int, int, int, int, int, int, int, int, int]
# (round, my PV, the foe's, my pillz, the foe's, my used cards, the foe's (bit masks), what my unspent
# Bénédiction would take off my next loss, the same for the foe)
Node = tuple[int, int, int, int, int, int, int, int, int]


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
def _odds(power: int, attack_foe: int, top: int) -> tuple[float, ...]:
    """My chance to win the round for each of my bets from 0 to `top`: attack ÷ (sum of attacks), 1/2 when
    both are 0 (the rules' draw, `rules.draw_winner`)."""
    return tuple(
        0.5 if power * bet + attack_foe == 0 else power * bet / (power * bet + attack_foe)
        for bet in range(top + 1)
    )


def _descending(row: list[float], top: int, count: int) -> list[float]:
    """`count` values of `row` read from index `top` down, an index below 0 reading `row[0]` (no pillz
    below 0): the pillz left after losing, for each of my bets from 0 up."""
    if top < 0:
        return [row[0]] * count
    found = row[top::-1] if top < count else row[top : top - count : -1]
    return found + [row[0]] * (count - len(found))


def exact_values(state: PillzState, me: int) -> list[tuple[Play, float]]:
    """Every option of `me` now, with its chance of winning the duel (a draw counting `DRAW`)."""
    foe = 1 - me
    hands = state.hands
    first = state.first
    max_me, max_foe = state.max_life[me], state.max_life[foe]
    chest_me, chest_foe = leader_total(hands[me], "war_chest"), leader_total(hands[foe], "war_chest")
    pairs: list[list[Pair]] = []
    for mine in hands[me]:
        row: list[Pair] = []
        for theirs in hands[foe]:
            m, n = matchup(mine, theirs), matchup(theirs, mine)
            row.append((
                m.power, m.damage_if_win, m.heal_if_win, m.drain_if_win, m.refund_if_loss + chest_me,
                n.power, n.damage_if_win, n.heal_if_win, n.drain_if_win, n.refund_if_loss + chest_foe,
            ))  # fmt: skip
        pairs.append(row)
    i_lead = tuple(lead_seat(first, rnd) == me for rnd in range(ROUNDS + 1))

    def end(life_me: int, life_foe: int) -> float:
        return DRAW if life_me == life_foe else (1.0 if life_me > life_foe else 0.0)

    def outcomes(node: Node, cm: int, cf: int, bf: int, my_bets: Sequence[int]) -> list[float]:
        """The round resolved with my `cm` against the foe's `cf` betting `bf`, for each of my bets: the
        chance of winning the duel from there (the draw at the rules' odds, then the rest searched)."""
        rnd, lm, lf, pm, pf, um, uf, sm, sf = node
        mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = pairs[cm][cf]
        attack_foe = fp * bf
        # If I win: the foe's unspent Bénédiction is spent on this first loss.
        lf_won = lf - (md - sf if md > sf else 0)
        lm_won = min(max_me, lm + mh)
        pf_won = max(0, pf - bf + fre - mdr)
        # If I lose: mine is.
        lm_lost = lm - (fd - sm if fd > sm else 0)
        lf_lost = min(max_foe, lf + fh)
        pf_lost = pf - bf
        # p x won + (1 - p) x lost is the same float as adding only the terms whose chance is not 0: won
        # and lost are finite, so a term with a chance of 0 adds exactly 0.0.
        odds = _odds(mp, attack_foe, my_bets[-1])  # my bets are in increasing order
        if rnd == ROUNDS:  # nothing after this round: both outcomes are final
            won = 1.0 if lf_won <= 0 else end(lm_won, lf_won)
            lost = 0.0 if lm_lost <= 0 else end(lm_lost, lf_lost)
            return [odds[bm] * won + (1 - odds[bm]) * lost for bm in my_bets]
        if rnd + 1 == ROUNDS:  # then the last round, one character left each: a row of my pillz
            # `my_bets` is every bet from 0 to pm here (the last round alone bets everything).
            cm_last, cf_last = _UNUSED[um | 1 << cm][0], _UNUSED[uf | 1 << cf][0]
            gain = mre - fdr
            won_seq: Iterable[float] = repeat(1.0)  # a KO: zip stops with `odds`
            if lf_won > 0:
                won_seq = last_row(lm_won, lf_won, pf_won, cm_last, cf_last, sm, 0, pm)[pm::-1]
            lost_seq: Iterable[float] = repeat(0.0)
            if lm_lost > 0:
                row = last_row(lm_lost, lf_lost, pf_lost, cm_last, cf_last, 0, sf, pm + max(0, gain))
                lost_seq = _descending(row, pm + gain, pm + 1)
            return [p * w + (1 - p) * q for p, w, q in zip(odds, won_seq, lost_seq, strict=False)]
        results = []
        used_me, used_foe = um | 1 << cm, uf | 1 << cf
        for bm in my_bets:  # rounds 2 and 3 still to play: each outcome is a searched node
            p_win = odds[bm]
            result = 0.0
            if p_win > 0:
                won = 1.0
                if lf_won > 0:
                    won = value(rnd + 1, lm_won, lf_won, pm - bm, pf_won, used_me, used_foe, sm, 0)
                result += p_win * won
            if p_win < 1 and lm_lost > 0:
                pm_lost = max(0, pm - bm + mre - fdr)
                lost = value(rnd + 1, lm_lost, lf_lost, pm_lost, pf_lost, used_me, used_foe, 0, sf)
                result += (1 - p_win) * lost
            results.append(result)
        return results

    def options(node: Node, pending: int | None) -> list[tuple[tuple[int, int], float]]:
        rnd, _, _, pm, pf, um, uf, _, _ = node
        mine = _UNUSED[um]
        theirs = _UNUSED[uf] if pending is None else (pending,)
        bets = model_bets(pf, ROUNDS - rnd + 1)
        my_bets = (pm,) if rnd == ROUNDS else range(pm + 1)
        if i_lead[rnd] or pending is not None:
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

    @cache
    def value(rnd: int, lm: int, lf: int, pm: int, pf: int, um: int, uf: int, sm: int, sf: int) -> float:
        return max(v for _, v in options((rnd, lm, lf, pm, pf, um, uf, sm, sf), None))

    rows: dict[tuple[int, int, int, int, int, int, int], list[float]] = {}

    def last_row(lm: int, lf: int, pf: int, cm: int, cf: int, sm: int, sf: int, top: int) -> list[float]:
        """The last round from its start, for each of my pillz from 0 to at least `top`: `cm` against `cf`,
        both betting everything (what `value` finds there: one option is left on each side)."""
        key = (lm, lf, pf, cm, cf, sm, sf)
        row = rows.get(key)
        if row is None:
            row = rows[key] = []
        if len(row) <= top:
            row += outcomes((ROUNDS, lm, lf, 0, pf, 0, 0, sm, sf), cm, cf, pf, range(len(row), top + 1))
        return row

    pending: int | None = None
    if state.pending is not None:
        pending = next(j for j, f in enumerate(hands[foe]) if f.card_id == state.pending[0])
    um = sum(1 << i for i, f in enumerate(hands[me]) if f.used)
    uf = sum(1 << i for i, f in enumerate(hands[foe]) if f.used)
    if pending is not None:
        uf &= ~(1 << pending)  # the revealed card is marked used, but it fights this round
    shields = (blessing_left(hands[me], state.history, me), blessing_left(hands[foe], state.history, foe))
    root = (state.round, state.life[me], state.life[foe], state.pillz[me], state.pillz[foe], um, uf, *shields)
    return [(Play(card=hands[me][cm].card_id, pillz=bm), v) for (cm, bm), v in options(root, pending)]
