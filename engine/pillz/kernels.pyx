# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Pillz AI's float kernels in C: the exact search's positions one round before the last
(`blocks.tables` with `blocks.lead_values` or `blocks.answer_values`) and the one-round evaluator's grid
(`ai.options_now` with `outlook.Outlooks.chance`), each in one call.

The NumPy code beside them is the reference and the fallback (this module is absent when the engine is
not built, and hidden by ENGINE_PURE=1). These loops apply the same IEEE double operations to the same
operands in the same order, element by element, so every value is bitwise NumPy's: integers (far below
2**53) are multiplied and subtracted as C longs and converted once, as NumPy's int64 arrays are; every
sum is taken in the reference's order; `max` only reads values (none a NaN or a -0.0). The build compiles
this file with -ffp-contract=off and without -ffast-math (tools/native.py): a fused multiply-add or a
reordered sum would change the last bits. `erf` is the C library's, which CPython's `math.erf` calls
on glibc (tests/engine/pillz/test_kernels.py compares every value of the round-1 evaluator, `erf`
included, with the NumPy code's, which applies `math.erf`).

What they skip, they skip exactly: a bet above my pillz is 0.0 in the NumPy tables and never read here
(a `max` of non-negative values with 0.0 is the same value), and a padded bet weighs 0.0 there, so
adding its term adds 0.0 to a non-negative total.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport erf, sqrt

cdef double DRAW = 0.25
cdef double SPREAD = 1.0
cdef double TIE = 0.5


cdef inline long lmin(long a, long b) noexcept nogil:
    return a if a < b else b


cdef inline long lmax(long a, long b) noexcept nogil:
    return a if a > b else b


cdef inline double share(long attack, long attack_foe) noexcept nogil:
    """`blocks.share`: attack / (sum of attacks), 1/2 when both are 0."""
    cdef long total = attack + attack_foe
    if total == 0:
        return 0.5
    return <double>attack / <double>total


cdef inline double end(long life_me, long life_foe) noexcept nogil:
    """`blocks.end`."""
    if life_me == life_foe:
        return DRAW
    return 1.0 if life_me > life_foe else 0.0


cdef inline double last_round(
    const long* pair, long lm, long lf, long pf, long pillz, long sm, long sf, long max_me, long max_foe
) noexcept nogil:
    """`blocks.last_round` of one element; `pair`: the 10 figures of `rules.figures`."""
    cdef long mp = pair[0], md = pair[1], mh = pair[2], fp = pair[5], fd = pair[6], fh = pair[7]
    cdef long lf_won = lf - (md - sf if md > sf else 0)
    cdef long lm_lost = lm - (fd - sm if fd > sm else 0)
    cdef double won = 1.0 if lf_won <= 0 else end(lmin(max_me, lm + mh), lf_won)
    cdef double lost = 0.0 if lm_lost <= 0 else end(lm_lost, lmin(max_foe, lf + fh))
    cdef double odds = share(mp * pillz, fp * pf)
    return odds * won + (1.0 - odds) * lost


cdef inline int unused_pair(long mask, long* out) noexcept nogil:
    """The two characters not in `mask` (search._LEFT), in increasing order."""
    cdef int n = 0
    cdef int i
    for i in range(4):
        if not (mask >> i) & 1:
            if n < 2:
                out[n] = i
            n += 1
    return n


cdef inline long last_of(long mask, long c) noexcept nogil:
    """The character left after `c` is played, when `mask` leaves two (search._LAST_OF)."""
    cdef long after = mask | (1 << c)
    cdef int i
    for i in range(4):
        if not (after >> i) & 1:
            return i
    return 0


def before_last_values(
    list pairs, list keys, list bets, long width, long max_me, long max_foe, bint lead
):
    """For each position one round before the last in `keys` (search.Family: my PV, the foe's, its
    pillz, the used characters' bit masks, the unspent Bénédictions), my chance of winning the duel for
    each of my pillz from 0 to `width` − 1: `blocks.lead_values` (`lead`) or `blocks.answer_values` of
    `blocks.tables`. `pairs`: the 16 pairs' figures (my character × 4 + the foe's), the war chests in
    the refunds; `bets`: each position's modelled foe bets (search.model_bets, unpadded)."""
    cdef long table[160]
    cdef long p, q, f
    for p in range(16):
        row = pairs[p]
        for f in range(10):
            table[p * 10 + f] = row[f]
    cdef Py_ssize_t n = width
    cdef double* won = <double*>PyMem_Malloc(n * sizeof(double))
    cdef double* lost = <double*>PyMem_Malloc(n * sizeof(double))
    cdef double* odds = <double*>PyMem_Malloc(n * sizeof(double))
    cdef double* acc = <double*>PyMem_Malloc(2 * n * n * sizeof(double))  # (my character, my bet, my pillz)
    cdef double* best = <double*>PyMem_Malloc(n * sizeof(double))
    cdef double* totals = <double*>PyMem_Malloc(n * sizeof(double))
    if not (won and lost and odds and acc and best and totals):
        PyMem_Free(won); PyMem_Free(lost); PyMem_Free(odds); PyMem_Free(acc); PyMem_Free(best)
        PyMem_Free(totals)
        raise MemoryError()
    cdef long mine[2]
    cdef long theirs[2]
    cdef long bet_values[8]
    cdef double weights[8]
    cdef long lm, lf, pf, um, uf, sm, sf, bf, gain, lf_won, lm_lost, lm_won, pf_won, lf_lost
    cdef long mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre
    cdef int i, j, k, count, first
    cdef long r, b, pm
    cdef const long* pair
    cdef const long* last
    cdef double value, w, top
    out = []
    try:
        for p in range(len(keys)):
            key = keys[p]
            lm, lf, pf, um, uf, sm, sf = key
            unused_pair(um, mine)
            unused_pair(uf, theirs)
            if len(bets[p]) > 8:
                raise ValueError("at most 8 modelled bets")
            count = 0
            for bf_w in bets[p]:
                bet_values[count] = bf_w[0]
                weights[count] = bf_w[1]
                count += 1
            first = 1
            with nogil:
                for j in range(2):
                    for k in range(count):
                        bf = bet_values[k]
                        w = weights[k]
                        for i in range(2):
                            pair = &table[(mine[i] * 4 + theirs[j]) * 10]
                            last = &table[(last_of(um, mine[i]) * 4 + last_of(uf, theirs[j])) * 10]
                            mp = pair[0]; md = pair[1]; mh = pair[2]; mdr = pair[3]; mre = pair[4]
                            fp = pair[5]; fd = pair[6]; fh = pair[7]; fdr = pair[8]; fre = pair[9]
                            gain = mre - fdr
                            # If I win: the foe's unspent Bénédiction is spent on this first loss. If I lose: mine is.
                            lf_won = lf - (md - sf if md > sf else 0)
                            lm_lost = lm - (fd - sm if fd > sm else 0)
                            lm_won = lmin(max_me, lm + mh)
                            pf_won = lmax(0, pf - bf + fre - mdr)
                            lf_lost = lmin(max_foe, lf + fh)
                            for r in range(n):
                                won[r] = (
                                    last_round(last, lm_won, lf_won, pf_won, r, sm, 0, max_me, max_foe)
                                    if lf_won > 0 else 1.0
                                )
                                lost[r] = (
                                    last_round(last, lm_lost, lf_lost, pf - bf, lmax(0, r + gain), 0, sf, max_me, max_foe)
                                    if lm_lost > 0 else 0.0
                                )
                                odds[r] = share(mp * r, fp * bf)
                            for pm in range(n):
                                top = 0.0
                                for b in range(pm + 1):
                                    value = odds[b] * won[pm - b] + (1.0 - odds[b]) * lost[pm - b]
                                    if lead:
                                        if first:
                                            acc[(i * n + b) * n + pm] = value * w
                                        else:
                                            acc[(i * n + b) * n + pm] += value * w
                                    elif value > top:
                                        top = value
                                if not lead:
                                    if i == 0 or top > best[pm]:
                                        best[pm] = top
                        if not lead:
                            for pm in range(n):
                                if first:
                                    totals[pm] = best[pm] * w
                                else:
                                    totals[pm] += best[pm] * w
                        first = 0
                for pm in range(n):
                    if lead:
                        top = 0.0
                        for i in range(2):
                            for b in range(pm + 1):
                                if acc[(i * n + b) * n + pm] > top:
                                    top = acc[(i * n + b) * n + pm]
                        totals[pm] = top * (1.0 / 2)
                    else:
                        totals[pm] = totals[pm] / 2
            out.append([totals[q] for q in range(n)])
    finally:
        PyMem_Free(won); PyMem_Free(lost); PyMem_Free(odds); PyMem_Free(acc); PyMem_Free(best)
        PyMem_Free(totals)
    return out


cdef struct Outlook:
    # what `outlook.Outlooks` holds for one (my character, the foe's): the rounds left after this one,
    # the kept characters' (power, damage) on each side, the last round's pair when one round is left
    long rounds
    long count_me
    long count_foe
    long stats_me[8]
    long stats_foe[8]
    long last[10]
    long max_me
    long max_foe


cdef inline double chance(
    const Outlook* o, long me, long foe, long p_mine, long p_foe, long shield_me, long shield_foe
) noexcept nogil:
    """`outlook.Outlooks.chance` of one element (with `moments`)."""
    cdef double found, mean, second, won, dealt, taken, variance, margin
    cdef long i, j, power, damage, foe_power, foe_damage
    cdef long pairs
    if foe <= 0:
        return 1.0
    if me <= 0:
        return 0.0
    if o.rounds == 0:
        return end(me, foe)
    if o.rounds == 1:
        return last_round(o.last, me, foe, p_foe, p_mine, shield_me, shield_foe, o.max_me, o.max_foe)
    mean = 0.0
    second = 0.0
    for i in range(o.count_me):
        power = o.stats_me[2 * i]
        damage = o.stats_me[2 * i + 1]
        for j in range(o.count_foe):
            foe_power = o.stats_foe[2 * j]
            foe_damage = o.stats_foe[2 * j + 1]
            won = share(power * p_mine, foe_power * p_foe)
            dealt = won * damage
            taken = (1.0 - won) * foe_damage
            mean = mean + (dealt - taken)
            second = second + (dealt * damage + taken * foe_damage)
    pairs = o.count_me * o.count_foe
    mean = mean / pairs
    variance = second / pairs - mean * mean
    if not variance > 0.0:
        variance = 0.0
    margin = <double>(me - foe + shield_me - shield_foe) + o.rounds * mean - TIE
    found = margin / sqrt(2.0 * (o.rounds * variance + SPREAD))
    return 0.5 * (1.0 + erf(found))


def evaluator_totals(
    list figures,
    list kept_me,
    list kept_foe,
    list last,
    list bets,
    tuple position,
):
    """`ai.options_now`'s totals: for each of my characters `c` and bets from 0 to my pillz, the option's
    chance of winning the duel summed over the foe's (character `o`, bet) in order. `figures[c][o]`: the
    round's pair (`rules.figures`, without the war chests); `kept_me[c]`, `kept_foe[o]`: the (power,
    damage) of the characters each side keeps (`rules.stats`); `last[c][o]`: the last round's pair
    when one round is left after this one; `bets`: the modelled foe's (bet, weight); `position`: my PV,
    the foe's, the maximum PVs, the pillz, the unspent Bénédictions, the war chests (mine, then the
    foe's)."""
    cdef long life_me, life_foe, max_me, max_foe, p_me, p_foe, shield_me, shield_foe, chest_me, chest_foe
    life_me, life_foe, max_me, max_foe, p_me, p_foe, shield_me, shield_foe, chest_me, chest_foe = position
    cdef long mine = len(figures)
    cdef long candidates = len(figures[0])
    cdef long count = len(bets)
    cdef Outlook outlook
    cdef long pair[10]
    cdef long q, b, c, o, k, f, i
    cdef double weight = 1.0 / candidates
    cdef double p, won, lost, value, w
    if any(len(kept) > 4 for kept in kept_me + kept_foe):
        raise ValueError("at most 4 kept characters a side")
    cdef double* totals = <double*>PyMem_Malloc(mine * (p_me + 1) * sizeof(double))
    if not totals:
        raise MemoryError()
    try:
        for c in range(mine * (p_me + 1)):
            totals[c] = 0.0
        outlook.max_me = max_me
        outlook.max_foe = max_foe
        for c in range(mine):
            outlook.count_me = len(kept_me[c])
            outlook.rounds = outlook.count_me
            for i in range(outlook.count_me):
                outlook.stats_me[2 * i] = kept_me[c][i][0]
                outlook.stats_me[2 * i + 1] = kept_me[c][i][1]
            for o in range(candidates):
                outlook.count_foe = len(kept_foe[o])
                for i in range(outlook.count_foe):
                    outlook.stats_foe[2 * i] = kept_foe[o][i][0]
                    outlook.stats_foe[2 * i + 1] = kept_foe[o][i][1]
                if outlook.rounds == 1:
                    for f in range(10):
                        outlook.last[f] = last[c][o][f]
                for f in range(10):
                    pair[f] = figures[c][o][f]
                for k in range(count):
                    q = bets[k][0]
                    w = bets[k][1]
                    with nogil:
                        for b in range(p_me + 1):
                            p = share(pair[0] * b, pair[5] * q)
                            won = chance(
                                &outlook,
                                lmin(max_me, life_me + pair[2]),
                                lmax(0, life_foe - lmax(0, pair[1] - shield_foe)),
                                p_me - b,
                                lmax(0, p_foe - q + pair[9] + chest_foe - pair[3]),
                                shield_me,
                                0,
                            )
                            lost = chance(
                                &outlook,
                                lmax(0, life_me - lmax(0, pair[6] - shield_me)),
                                lmin(max_foe, life_foe + pair[7]),
                                lmax(0, p_me - b + pair[4] + chest_me - pair[8]),
                                p_foe - q,
                                0,
                                shield_foe,
                            )
                            value = p * won + (1.0 - p) * lost
                            totals[c * (p_me + 1) + b] += (weight * w) * value
        return [[totals[c * (p_me + 1) + b] for b in range(p_me + 1)] for c in range(mine)]
    finally:
        PyMem_Free(totals)
