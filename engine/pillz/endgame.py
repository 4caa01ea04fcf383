"""The exact search's last two rounds for one position at a time, in plain floats: a root one round
before the last (round 3) and a root in the last round (round 4).

Such a root needs a dozen rows of `blocks.tables` (one position), or one value per pair in the last round:
as NumPy blocks, the calls' overhead was most of the time of these decisions (0.7 ms of a lab duel).
These are the blocks' formulas applied element by element: the same IEEE operations on the same
operands in the same order (`blocks.tables`, `blocks.last_round`), so the values are bitwise the same.
"""

from __future__ import annotations

from engine.pillz.rules import Figures

DRAW = 0.25  # a draw's worth, between a loss (0) and a win (1): draws do not climb ladders

# A pair's figures as the search keeps them (`rules.figures`, the war chests in the refunds)
Pair = Figures


def _end(life_me: int, life_foe: int) -> float:
    """The duel's value once no round is left: a win, a draw (`DRAW`) or a loss by the PV compared."""
    return DRAW if life_me == life_foe else 1.0 if life_me > life_foe else 0.0


def last_row(
    pair: Pair, lm: int, lf: int, pf: int, sm: int, sf: int, top: tuple[int, int], count: int
) -> list[float]:
    """`blocks.last_round` of `pair` for each of my pillz from 0 to `count` − 1, both sides betting
    everything: p × won + (1 − p) × lost, the outcomes final (a KO, else the PV compared)."""
    mp, md, mh, _, _, fp, fd, fh, _, _ = pair
    lf_won = lf - (md - sf if md > sf else 0)
    lm_lost = lm - (fd - sm if fd > sm else 0)
    won = 1.0 if lf_won <= 0 else _end(min(top[0], lm + mh), lf_won)
    lost = 0.0 if lm_lost <= 0 else _end(lm_lost, min(top[1], lf + fh))
    attack_foe = fp * pf
    row = []
    for pillz in range(count):
        attack = mp * pillz
        total = attack + attack_foe
        odds = 0.5 if total == 0 else attack / total
        row.append(odds * won + (1.0 - odds) * lost)
    return row


def last_value(
    pair: Pair, lm: int, lf: int, pm: int, pf: int, sm: int, sf: int, top: tuple[int, int]
) -> float:
    """The last round fought by `pair` with my `pm` pillz against the foe's `pf`."""
    return last_row(pair, lm, lf, pf, sm, sf, top, pm + 1)[pm]


def reply_row(
    pair: Pair,
    last: Pair,
    position: tuple[int, int, int, int, int],
    pm: int,
    bf: int,
    top: tuple[int, int],
) -> list[float]:
    """One round before the last, `pair` fighting with the foe betting `bf` and `last` fighting after:
    the chance of winning the duel for each of my bets from 0 to `pm` (`blocks.tables` of one row, read
    at my `pm` pillz). `position`: my PV, the foe's, its pillz, the unspent Bénédictions."""
    lm, lf, pf, sm, sf = position
    mp, md, mh, mdr, mre, fp, fd, fh, fdr, fre = pair
    gain = mre - fdr
    lf_won = lf - (md - sf if md > sf else 0)
    lm_lost = lm - (fd - sm if fd > sm else 0)
    if lf_won > 0:
        pf_won = max(0, pf - bf + fre - mdr)
        won = last_row(last, min(top[0], lm + mh), lf_won, pf_won, sm, 0, top, pm + 1)
    else:
        won = [1.0] * (pm + 1)
    reach = pm + 1 + max(0, gain)
    lost = (
        last_row(last, lm_lost, min(top[1], lf + fh), pf - bf, 0, sf, top, reach)
        if lm_lost > 0
        else [0.0] * reach
    )
    attack_foe = fp * bf
    row = []
    for bet in range(pm + 1):
        attack = mp * bet
        total = attack + attack_foe
        odds = 0.5 if total == 0 else attack / total
        row.append(odds * won[pm - bet] + (1.0 - odds) * lost[max(0, pm - bet + gain)])
    return row
