"""Computer opponents for the Pillz duel: `choose` (the AI), `random_policy` and `even_split_policy`.

Every policy has the signature `(state, seat, rng) -> Play`, uses only what `seat` may know (both
line-ups, PV, the pillz at the start of the round, the opposing character once it is shown; never the
opponent's pending pillz nor the game's random stream) and draws its own chance from the `rng` it is
given: the same state gets different answers from different generators, the same answer from the same.

`evaluate` (round 1) — a one-round look-ahead with a value of what remains, then a randomized pick:

- the opponent: its character is the one shown when answering, else any of its unused characters
  (equally likely); its pillz are modelled around a fair share f = pillz ÷ rounds left: f (40 %),
  f ± f/2 (20 % each), nothing or everything (10 % each, for erratic players); everything in the last
  round;
- each of my options (character, pillz) is scored by its expected chance of winning the duel: the round
  is resolved exactly as the engine does it (`rules.matchup`: abilities, cancellation, damage, healing,
  refunds, drains, the KO it causes or suffers), then the rest of the duel is valued by `_Outlook`: the
  last round exactly (both sides bet everything), two or three rounds by a normal law of the final PV
  margin whose mean and variance come from the kept characters and the pillz ratio. Leaders count too:
  a Trésor de guerre's refund after each lost round, a Bénédiction's damage taken off the first loss
  (exactly in this round and the last, as PV in hand in the rounds between). So the AI saves
  pillz when little is at stake, spends them when a KO is within reach or threatens, keeps strong
  characters for well-funded rounds, answers a revealed character with the right one, and bets
  everything in the last round; a draw is worth a quarter of a win to it (draws do not win ladders);
- the pick is drawn from a softmax over these chances (temperature `TEMPERATURE`), so it is not
  predictable: options within a few tenths of a point of the best are played often, worse ones rarely.

From round 2 on, `choose` uses the exact search of `engine/pillz/search.py` instead of `evaluate` (the
tree is then small enough). Measured figures: docs/pillz/rules-notes.md, "The AI" (55.85 % wins against
the even-split policy pooled over 6,000 matches, about 75-78 % against the uniform random policy).
"""

from __future__ import annotations

import math
import random

from engine.pillz.rules import Matchup, blessing_left, lead_seat, leader_total, matchup
from engine.pillz.search import exact_values
from engine.pillz.state import ROUNDS, Fighter, PillzState, Play

TEMPERATURE = 0.003  # in units of "chance of winning the duel": 1 point = 0.01
_SPREAD = 1.0  # added to the variance of the final PV margin: integer PV, a model's error
_TIE = 0.5  # a draw is not a win: the margin must reach 1 PV
_DRAW = 0.25  # the value of a draw, between a loss (0) and a win (1)


def _unused(state: PillzState, seat: int) -> list[Fighter]:
    return [f for f in state.hands[seat] if not f.used]


def rounds_left(state: PillzState) -> int:
    """Rounds still to play, the current one included."""
    return ROUNDS - state.round + 1


def random_policy(state: PillzState, seat: int, rng: random.Random) -> Play:
    """Uniform over the legal actions: any unused character, any pillz from 0 to all."""
    cards = _unused(state, seat)
    return Play(card=rng.choice(cards).card_id, pillz=rng.randint(0, state.pillz[seat]))


def even_split_policy(state: PillzState, seat: int, rng: random.Random) -> Play:
    """A random unused character with pillz left ÷ rounds left (everything in the last round)."""
    cards = _unused(state, seat)
    return Play(card=rng.choice(cards).card_id, pillz=state.pillz[seat] // rounds_left(state))


def foe_bets(pillz: int, rounds: int) -> list[tuple[int, float]]:
    """The modelled opponent's pillz: around a fair share, all of them in the last round."""
    if rounds <= 1:
        return [(pillz, 1.0)]
    fair = pillz // rounds
    step = max(1, fair // 2)
    return [
        (fair, 0.4),
        (max(0, fair - step), 0.2),
        (min(pillz, fair + step), 0.2),
        (0, 0.1),
        (pillz, 0.1),
    ]


def _stats(fighters: list[Fighter]) -> list[tuple[int, int]]:
    """(power, damage) with the character's own bonuses, as the rest of the duel is valued."""
    return [
        (
            f.power + (f.value if f.ability == "power_bonus" else 0),
            f.damage + (f.value if f.ability == "damage_bonus" else 0),
        )
        for f in fighters
    ]


def _final(me: int, foe: int) -> float:
    return 1.0 if me > foe else _DRAW if me == foe else 0.0


class _Outlook:
    """The chance of winning the duel once this round is over, for given characters kept on each side.

    Two or more rounds left: the rest is modelled as rounds where any kept character meets any opposing
    one (equally likely) and each side bets the same share of its pillz, so a round's winning chance is
    the power x pillz ratio. Summing the rounds' net damage (mean and variance) gives the final PV
    margin as a normal law; the chance is that of a margin of at least 1 PV (a draw is not a win).
    One round left: computed exactly, both sides betting everything (pillz are worth nothing after it).
    """

    def __init__(self, mine: list[Fighter], theirs: list[Fighter], max_me: int, max_foe: int) -> None:
        self.max_me, self.max_foe = max_me, max_foe
        self.mine, self.theirs = _stats(mine), _stats(theirs)
        self.rounds = len(mine)
        self.last = (matchup(mine[0], theirs[0]), matchup(theirs[0], mine[0])) if self.rounds == 1 else None
        self.cache: dict[tuple[int, int], tuple[float, float]] = {}

    def moments(self, p_mine: int, p_foe: int) -> tuple[float, float]:
        """Mean and variance of the net damage of the rounds left (mine dealt minus mine taken).

        They depend on the pillz through the ratio p_mine : p_foe only: a share a ÷ (a + b) of integers is
        the exact quotient correctly rounded, the same float for (k·a) ÷ (k·a + k·b). So the pillz are
        reduced by their greatest common divisor before the cache is read (1:1 and 5:5 are valued once)."""
        common = math.gcd(p_mine, p_foe) or 1
        key = (p_mine // common, p_foe // common)
        found = self.cache.get(key)
        if found is not None:
            return found
        p_mine, p_foe = key
        mean = second = 0.0
        for power, damage in self.mine:
            a = power * p_mine
            for foe_power, foe_damage in self.theirs:
                b = foe_power * p_foe
                share = 0.5 if a + b == 0 else a / (a + b)
                dealt, taken = share * damage, (1 - share) * foe_damage
                mean += dealt - taken
                second += dealt * damage + taken * foe_damage
        pairs = len(self.mine) * len(self.theirs)
        mean /= pairs
        variance = max(0.0, second / pairs - mean * mean)
        found = (self.rounds * mean, self.rounds * variance)
        self.cache[key] = found
        return found

    def chance(self, me: int, foe: int, p_mine: int, p_foe: int, shield_me: int, shield_foe: int) -> float:
        """`shield_*`: what a side's unspent Bénédiction would take off its next lost round."""
        if foe <= 0:
            return 1.0
        if me <= 0:
            return 0.0
        if self.rounds == 0:
            return _final(me, foe)
        if self.last is not None:
            m, n = self.last
            a, b = m.power * p_mine, n.power * p_foe
            share = 0.5 if a + b == 0 else a / (a + b)
            hit = foe - max(0, m.damage_if_win - shield_foe)
            taken = me - max(0, n.damage_if_win - shield_me)
            won = 1.0 if hit <= 0 else _final(min(self.max_me, me + m.heal_if_win), hit)
            lost = 0.0 if taken <= 0 else _final(taken, min(self.max_foe, foe + n.heal_if_win))
            return share * won + (1 - share) * lost
        mean, variance = self.moments(p_mine, p_foe)
        margin = me - foe + shield_me - shield_foe + mean - _TIE
        return 0.5 * (1.0 + math.erf(margin / math.sqrt(2.0 * (variance + _SPREAD))))


def evaluate(state: PillzState, seat: int) -> list[tuple[Play, float]]:
    """Every legal option of `seat` with its estimated chance of winning the duel."""
    foe = 1 - seat
    answering = state.pending is not None and lead_seat(state.first, state.round) == foe
    mine = _unused(state, seat)
    theirs = _unused(state, foe)
    if answering:
        assert state.pending is not None
        candidates = [f for f in state.hands[foe] if f.card_id == state.pending[0]]  # marked used
    else:
        candidates = theirs
    life_me, life_foe = state.life[seat], state.life[foe]
    max_me, max_foe = state.max_life[seat], state.max_life[foe]
    p_me, p_foe = state.pillz[seat], state.pillz[foe]
    shield_me = blessing_left(state.hands[seat], state.history, seat)
    shield_foe = blessing_left(state.hands[foe], state.history, foe)
    chest_me, chest_foe = (
        leader_total(state.hands[seat], "war_chest"),
        leader_total(state.hands[foe], "war_chest"),
    )
    bets = foe_bets(p_foe, rounds_left(state))
    weight = 1.0 / len(candidates)
    results: list[tuple[Play, float]] = []
    for card in mine:
        kept = [f for f in mine if f is not card]
        totals = [0.0] * (p_me + 1)
        for other in candidates:
            outlook = _Outlook(kept, [f for f in theirs if f is not other], max_me, max_foe)
            chance = outlook.chance
            m: Matchup = matchup(card, other)
            n: Matchup = matchup(other, card)
            foe_after_win = max(0, life_foe - max(0, m.damage_if_win - shield_foe))
            me_after_win = min(max_me, life_me + m.heal_if_win)
            me_after_loss = max(0, life_me - max(0, n.damage_if_win - shield_me))
            foe_after_loss = min(max_foe, life_foe + n.heal_if_win)
            for q, w in bets:
                attack_foe = n.power * q
                q_win = max(0, p_foe - q + n.refund_if_loss + chest_foe - m.drain_if_win)
                q_loss = p_foe - q
                scale = weight * w
                for b in range(p_me + 1):
                    attack = m.power * b
                    total = attack + attack_foe
                    p = 0.5 if total == 0 else attack / total
                    value = 0.0
                    if p > 0:
                        value += p * chance(me_after_win, foe_after_win, p_me - b, q_win, shield_me, 0)
                    if p < 1:
                        p_loss = max(0, p_me - b + m.refund_if_loss + chest_me - n.drain_if_win)
                        value += (1 - p) * chance(
                            me_after_loss, foe_after_loss, p_loss, q_loss, 0, shield_foe
                        )
                    totals[b] += scale * value
        results.extend((Play(card=card.card_id, pillz=b), v) for b, v in enumerate(totals))
    return results


def _softmax(options: list[tuple[Play, float]], rng: random.Random) -> Play:
    best = max(v for _, v in options)
    weights = [math.exp((v - best) / TEMPERATURE) for _, v in options]
    return rng.choices([play for play, _ in options], weights=weights)[0]


def choose_quick(state: PillzState, seat: int, rng: random.Random) -> Play:
    """The AI with the one-round evaluator in every round (a few milliseconds): for the moves the bot must
    make inside a database transaction (a player's timeout), where the exact search would hold the writer."""
    return _softmax(evaluate(state, seat), rng)


def choose(state: PillzState, seat: int, rng: random.Random) -> Play:
    """The AI's move: a softmax draw over the options' chances of winning the duel — from `evaluate` in
    round 1, from the exact search (`search.exact_values`) from round 2 on (see the module docstring)."""
    options = evaluate(state, seat) if state.round == 1 else exact_values(state, seat)
    return _softmax(options, rng)
