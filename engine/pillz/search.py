"""An exact look-ahead for the Pillz AI from round 2 on: every option valued by the chance of winning the
duel, the rest of the duel searched to its end.

The search is an expectimax over the remaining rounds: at my choices the best option, at the opponent's
a model of a reasonable player (its character equally likely among those it has left, or the one it
revealed; its pillz around a fair share f = pillz ÷ rounds left: f half the time, f − 1 and f + 1 a
quarter each; everything in the last round), at each round's draw the rules' exact odds
(`rules.matchup`: abilities, cancellation, damage, healing, refunds, drains, K.O.). In the last round
betting everything is dominant (pillz are worth nothing after it), so only that is searched there.

From round 2 the tree is small enough (a few tens of milliseconds in CPython); in round 1 it is not
(hundreds of milliseconds), so `ai.choose` uses its one-round evaluator there.
"""

from __future__ import annotations

from functools import cache

from engine.pillz.rules import lead_seat, matchup
from engine.pillz.state import ROUNDS, PillzState, Play

DRAW = 0.25  # a draw's worth, between a loss (0) and a win (1): draws do not climb ladders

# (power, damage if win, heal if win, drain if win, refund if loss) for me, then the same for the foe
Pair = tuple[int, int, int, int, int, int, int, int, int, int]


def model_bets(pillz: int, rounds: int) -> tuple[tuple[int, float], ...]:
    """The modelled opponent's pillz: a fair share, one more or one less; everything in the last round."""
    if rounds <= 1:
        return ((pillz, 1.0),)
    fair = pillz // rounds
    weights: dict[int, float] = {}
    for bet, weight in ((fair, 0.5), (max(0, fair - 1), 0.25), (min(pillz, fair + 1), 0.25)):
        weights[bet] = weights.get(bet, 0.0) + weight
    return tuple(weights.items())


def _unused(mask: int) -> list[int]:
    return [i for i in range(4) if not mask >> i & 1]


def exact_values(state: PillzState, me: int) -> list[tuple[Play, float]]:
    """Every option of `me` now, with its chance of winning the duel (a draw counting `DRAW`)."""
    foe = 1 - me
    hands = state.hands
    first = state.first
    max_me, max_foe = state.max_life[me], state.max_life[foe]
    pairs: dict[tuple[int, int], Pair] = {}
    for i, mine in enumerate(hands[me]):
        for j, theirs in enumerate(hands[foe]):
            m, n = matchup(mine, theirs), matchup(theirs, mine)
            pairs[(i, j)] = (
                m.power, m.damage_if_win, m.heal_if_win, m.drain_if_win, m.refund_if_loss,
                n.power, n.damage_if_win, n.heal_if_win, n.drain_if_win, n.refund_if_loss,
            )  # fmt: skip

    def end(life_me: int, life_foe: int) -> float:
        return DRAW if life_me == life_foe else (1.0 if life_me > life_foe else 0.0)

    def resolve(node: tuple[int, int, int, int, int, int, int], cm: int, bm: int, cf: int, bf: int) -> float:
        rnd, lm, lf, pm, pf, um, uf = node
        mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = pairs[(cm, cf)]
        total = mp * bm + fp * bf
        p_win = 0.5 if total == 0 else mp * bm / total
        used_me, used_foe = um | (1 << cm), uf | (1 << cf)
        result = 0.0
        if p_win > 0:
            lf2 = lf - md
            if lf2 <= 0:
                won = 1.0
            else:
                lm2 = min(max_me, lm + mh)
                pf2 = max(0, pf - bf + fre - mdr)
                won = (
                    end(lm2, lf2)
                    if rnd == ROUNDS
                    else value(rnd + 1, lm2, lf2, pm - bm, pf2, used_me, used_foe)
                )
            result += p_win * won
        if p_win < 1:
            lm2 = lm - fd
            if lm2 <= 0:
                lost = 0.0
            else:
                lf2 = min(max_foe, lf + fh)
                pm2 = max(0, pm - bm + mre - fdr)
                lost = (
                    end(lm2, lf2)
                    if rnd == ROUNDS
                    else value(rnd + 1, lm2, lf2, pm2, pf - bf, used_me, used_foe)
                )
            result += (1 - p_win) * lost
        return result

    def options(
        node: tuple[int, int, int, int, int, int, int], pending: int | None
    ) -> list[tuple[tuple[int, int], float]]:
        rnd, _, _, pm, pf, um, uf = node
        mine = _unused(um)
        theirs = _unused(uf) if pending is None else [pending]
        bets = model_bets(pf, ROUNDS - rnd + 1)
        my_bets = [pm] if rnd == ROUNDS else list(range(pm + 1))
        if lead_seat(first, rnd) == me or pending is not None:
            share = 1.0 / len(theirs)
            found = []
            for cm in mine:
                for bm in my_bets:
                    total = sum(w * resolve(node, cm, bm, cf, bf) for cf in theirs for bf, w in bets)
                    found.append(((cm, bm), total * share))
            return found

        def answer(cf: int, bf: int) -> float:  # my best reply to that lead
            return max(resolve(node, cm, bm, cf, bf) for cm in mine for bm in my_bets)

        total = sum(w * answer(cf, bf) for cf in theirs for bf, w in bets)
        return [((-1, -1), total / len(theirs))]

    @cache
    def value(rnd: int, lm: int, lf: int, pm: int, pf: int, um: int, uf: int) -> float:
        return max(v for _, v in options((rnd, lm, lf, pm, pf, um, uf), None))

    pending: int | None = None
    if state.pending is not None:
        pending = next(j for j, f in enumerate(hands[foe]) if f.card_id == state.pending[0])
    um = sum(1 << i for i, f in enumerate(hands[me]) if f.used)
    uf = sum(1 << i for i, f in enumerate(hands[foe]) if f.used)
    if pending is not None:
        uf &= ~(1 << pending)  # the revealed card is marked used, but it fights this round
    root = (state.round, state.life[me], state.life[foe], state.pillz[me], state.pillz[foe], um, uf)
    return [(Play(card=hands[me][cm].card_id, pillz=bm), v) for (cm, bm), v in options(root, pending)]
