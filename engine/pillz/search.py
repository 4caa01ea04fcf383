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
round, where one character is left on each side and both bet everything, is a cached row indexed by my
pillz (`last_row`) rather than a search node. The nodes one round before the last are nearly all the
work: a round-2 decision asks for a few hundred of them, most in runs that differ only by my pillz (one
per bet of mine at the root), so they are valued a run at a time (`before_last`): each (character,
character, bet) is prepared once for the run, its last-round rows laid out so that a slice reads them
for given pillz. The values are the same floats, from the same operations in the same order, as a plain
expectimax would give, so the AI's moves from a given generator are the same
(tests/engine/pillz/test_search.py compares with one).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import chain, repeat
from operator import add, mul

from engine.pillz.rules import blessing_left, lead_seat, leader_total, matchup
from engine.pillz.state import ROUNDS, PillzState, Play

DRAW = 0.25  # a draw's worth, between a loss (0) and a win (1): draws do not climb ladders

# (power, damage if win, heal if win, drain if win, refund if loss) for me, then the same for the foe
Pair = tuple[int, int, int, int, int, int, int, int, int, int]
# (round, my PV, the foe's, my pillz, the foe's, my used cards, the foe's (bit masks), what my unspent
# Bénédiction would take off my next loss, the same for the foe)
Node = tuple[int, int, int, int, int, int, int, int, int]
Bets = tuple[tuple[int, float], ...]  # (the foe's pillz, its weight)
# For each of my bets: my chance to win the round, to lose it; the duel's values after a win, after a loss
# laid out for `_reads`, and where a loss's are read from
Prepared = tuple[tuple[float, ...], tuple[float, ...], list[float], list[float], int]
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


def _reads(prepared: Prepared, pms: range) -> list[tuple[list[float], list[float]]]:
    """What `_Search.prepare` found, read for each of my pillz in `pms`: for each of my bets from 0 to
    those pillz, the chance of winning the duel after a won round and after a lost one (the last round's
    rows read by the pillz I have left: 1 after a KO of the foe, 0 after mine). The chances to win and
    lose the round, the first two sequences of `prepared`, go up to the largest pillz prepared: a zip
    with these reads stops with the reads."""
    _, _, won, lost, offset = prepared
    return [(won[pm::-1], lost[offset - pm : offset + 1]) for pm in pms]


def _rows(prepared: Prepared, pms: range) -> list[list[float]]:
    """The chance of winning the duel for each of my bets, p × won + (1 − p) × lost, for each of my
    pillz in `pms`."""
    odds, rest = prepared[0], prepared[1]
    return [list(_row(odds, rest, won, lost)) for won, lost in _reads(prepared, pms)]


def _row(
    odds: Sequence[float], rest: Sequence[float], won: Sequence[float], lost: Sequence[float]
) -> Iterator[float]:
    """p × won + (1 − p) × lost for each of my bets, as far as the shortest sequence goes: `map` over
    `operator`'s functions does the same two products and the same sum as a loop, without its bytecode."""
    return map(add, map(mul, odds, won), map(mul, rest, lost))


def _lead_values(prepared: list[list[list[Prepared]]], bets: Bets, pms: range) -> list[float]:
    """My best option, for each of my pillz in `pms`, when I lead one round before the last (`prepared`
    by my character, the foe's, its bet): an option's total is summed over the foe's (character, bet) in
    order, times the share of a character. The best total × share is the best option: multiplying by a
    positive number keeps the order of floats."""
    best = [0.0] * len(pms)
    for by_foe in prepared:
        totals = [[0.0] * (pm + 1) for pm in pms]
        for by_bet in by_foe:
            for (_, w), found in zip(bets, by_bet, strict=True):
                odds, rest = found[0], found[1]
                for k, (won, lost) in enumerate(_reads(found, pms)):
                    totals[k] = list(map(add, totals[k], map(mul, repeat(w), _row(odds, rest, won, lost))))
        best = [max(b, *row) for b, row in zip(best, totals, strict=True)]
    share = 1.0 / len(prepared[0])
    return [b * share for b in best]


def _best_rows(prepared: Prepared, pms: range) -> Iterator[Iterator[float]]:
    """`_rows` without building the lists, for a caller that only takes each row's best."""
    odds, rest = prepared[0], prepared[1]
    return (_row(odds, rest, won, lost) for won, lost in _reads(prepared, pms))


def _answer_values(prepared: list[list[list[Prepared]]], bets: Bets, pms: range) -> list[float]:
    """The foe leads one round before the last: my best reply to each of its (character, bet), weighted,
    for each of my pillz in `pms`. The best of all my options is the best of each character's best: `max`
    returns one of the values, and none is a NaN or a −0.0 (products and sums of non-negative numbers)."""
    totals = [0.0] * len(pms)
    for j in range(len(prepared[0])):
        for i, (_, w) in enumerate(bets):
            # for each of my pillz, every (character, bet) of mine: the best of the best per character
            replies = zip(*(_best_rows(by_foe[j][i], pms) for by_foe in prepared), strict=True)
            totals = [t + w * max(chain.from_iterable(rows)) for t, rows in zip(totals, replies, strict=True)]
    return [t / len(prepared[0]) for t in totals]


def _end(life_me: int, life_foe: int) -> float:
    return DRAW if life_me == life_foe else (1.0 if life_me > life_foe else 0.0)


class _Search:
    """One decision's search: the matchups of the two line-ups, and the values and last-round rows found
    so far (a position reached along several paths is valued once)."""

    def __init__(self, state: PillzState, me: int) -> None:
        foe = 1 - me
        hands = state.hands
        self.max_me, self.max_foe = state.max_life[me], state.max_life[foe]
        chest_me, chest_foe = leader_total(hands[me], "war_chest"), leader_total(hands[foe], "war_chest")
        self.pairs: list[list[Pair]] = []
        for mine in hands[me]:
            row: list[Pair] = []
            for theirs in hands[foe]:
                m, n = matchup(mine, theirs), matchup(theirs, mine)
                row.append((
                    m.power, m.damage_if_win, m.heal_if_win, m.drain_if_win, m.refund_if_loss + chest_me,
                    n.power, n.damage_if_win, n.heal_if_win, n.drain_if_win, n.refund_if_loss + chest_foe,
                ))  # fmt: skip
            self.pairs.append(row)
        self.i_lead = tuple(lead_seat(state.first, rnd) == me for rnd in range(ROUNDS + 1))
        self.values: dict[Node, float] = {}
        self.rows: dict[tuple[int, int, int, int, int, int, int], list[float]] = {}
        self.families: dict[Family, list[float]] = {}

    def outcomes(self, node: Node, cm: int, cf: int, bf: int, my_bets: Sequence[int]) -> list[float]:
        """The round resolved with my `cm` against the foe's `cf` betting `bf`, for each of my bets (in
        increasing order): the chance of winning the duel from there (the draw at the rules' odds, then
        the rest searched)."""
        rnd, lm, lf, pm, pf, um, uf, sm, sf = node
        if rnd == ROUNDS:  # nothing after this round: both outcomes are final
            return self.final_round(node, cm, cf, bf, my_bets)
        if rnd + 1 == ROUNDS:  # then the last round: `my_bets` is every bet from 0 to pm
            return _rows(self.prepare((lm, lf, pf, um, uf, sm, sf), cm, cf, bf, pm), range(pm, pm + 1))[0]
        mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = self.pairs[cm][cf]
        # If I win: the foe's unspent Bénédiction is spent on this first loss. If I lose: mine is.
        lf_won = lf - (md - sf if md > sf else 0)
        lm_won = min(self.max_me, lm + mh)
        pf_won = max(0, pf - bf + fre - mdr)
        lm_lost = lm - (fd - sm if fd > sm else 0)
        lf_lost = min(self.max_foe, lf + fh)
        pf_lost = pf - bf
        odds, _ = _odds(mp, fp * bf, my_bets[-1])
        results = []
        used_me, used_foe = um | 1 << cm, uf | 1 << cf
        value = self.value
        for bm in my_bets:  # rounds still to play after the next: each outcome is a searched node
            p_win = odds[bm]
            result = 0.0
            if p_win > 0:
                won = 1.0
                if lf_won > 0:
                    won = value((rnd + 1, lm_won, lf_won, pm - bm, pf_won, used_me, used_foe, sm, 0))
                result += p_win * won
            if p_win < 1 and lm_lost > 0:
                pm_lost = max(0, pm - bm + mre - fdr)
                lost = value((rnd + 1, lm_lost, lf_lost, pm_lost, pf_lost, used_me, used_foe, 0, sf))
                result += (1 - p_win) * lost
            results.append(result)
        return results

    def final_round(self, node: Node, cm: int, cf: int, bf: int, my_bets: Sequence[int]) -> list[float]:
        """The last round: both outcomes final. p × won + (1 − p) × lost is the same float as adding only
        the terms whose chance is not 0: won and lost are finite, so a term with a chance of 0 adds 0.0."""
        _, lm, lf, _, _, _, _, sm, sf = node
        mp, md, mh, _, _, fp, fd, fh, _, _ = self.pairs[cm][cf]
        lf_won = lf - (md - sf if md > sf else 0)
        lm_lost = lm - (fd - sm if fd > sm else 0)
        won = 1.0 if lf_won <= 0 else _end(min(self.max_me, lm + mh), lf_won)
        lost = 0.0 if lm_lost <= 0 else _end(lm_lost, min(self.max_foe, lf + fh))
        odds, rest = _odds(mp, fp * bf, my_bets[-1])
        return [odds[bm] * won + rest[bm] * lost for bm in my_bets]

    def prepare(self, key: Family, cm: int, cf: int, bf: int, top: int) -> Prepared:
        """One round before the last, `cm` against `cf` betting `bf`, for my pillz up to `top`: my chance to
        win and to lose the round for each of my bets, then the last round's values laid out so that one
        slice reads them for given pillz of mine (`_reads`): after a win, by the pillz I have left (1
        after a KO of the foe); after a loss, by the pillz left plus what the loss changes them by
        (refunds, the foe's drain; not below 0), from `offset` down (0 after a KO of mine)."""
        lm, lf, pf, um, uf, sm, sf = key
        mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = self.pairs[cm][cf]
        # If I win: the foe's unspent Bénédiction is spent on this first loss. If I lose: mine is.
        lf_won = lf - (md - sf if md > sf else 0)
        lm_lost = lm - (fd - sm if fd > sm else 0)
        cm_last, cf_last = _UNUSED[um | 1 << cm][0], _UNUSED[uf | 1 << cf][0]
        won = [1.0] * (top + 1)
        if lf_won > 0:
            lm_won, pf_won = min(self.max_me, lm + mh), max(0, pf - bf + fre - mdr)
            won = self.last_row(lm_won, lf_won, pf_won, cm_last, cf_last, sm, 0, top)
        lost, offset = [0.0] * (top + 1), top
        if lm_lost > 0:
            gain = mre - fdr
            reach = top + max(0, gain)  # the most pillz I can have after a loss
            row = self.last_row(lm_lost, min(self.max_foe, lf + fh), pf - bf, cm_last, cf_last, 0, sf, reach)
            # lost[i] is the value with max(0, reach - i) pillz: with k pillz and bet b, I have
            # max(0, k - b + gain) left, lost[offset - k + b]
            lost, offset = row[reach::-1] + [row[0]] * (top + 1 + max(0, -gain)), reach - gain
        return (*_odds(mp, fp * bf, top), won, lost, offset)

    def before_last(self, key: Family, top: int) -> list[float]:
        """`value` of the nodes one round before the last that differ only by my pillz, for each of my
        pillz from 0 to at least `top`: the root asks for most of them (one per bet of mine), and they
        share everything but the length of their rows."""
        found = self.families.get(key)
        if found is None:
            found = self.families[key] = []
        if len(found) <= top:
            pf, um, uf = key[2:5]
            mine, theirs = _UNUSED[um], _UNUSED[uf]
            bets = model_bets(pf, 2)  # two rounds left
            prepared = [
                [[self.prepare(key, cm, cf, bf, top) for bf, _ in bets] for cf in theirs] for cm in mine
            ]
            values = _lead_values if self.i_lead[ROUNDS - 1] else _answer_values
            found += values(prepared, bets, range(len(found), top + 1))
        return found

    def last_row(
        self, lm: int, lf: int, pf: int, cm: int, cf: int, sm: int, sf: int, top: int
    ) -> list[float]:
        """The last round from its start, for each of my pillz from 0 to at least `top`: `cm` against `cf`,
        both betting everything (what `value` finds there: one option is left on each side)."""
        key = (lm, lf, pf, cm, cf, sm, sf)
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = []
        if len(row) <= top:
            node = (ROUNDS, lm, lf, 0, pf, 0, 0, sm, sf)
            row += self.final_round(node, cm, cf, pf, range(len(row), top + 1))
        return row

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
    found = _Search(state, me).options(root, pending)
    return [(Play(card=hands[me][cm].card_id, pillz=bm), v) for (cm, bm), v in found]
