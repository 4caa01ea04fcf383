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
  refunds, drains, the KO it causes or suffers), then the rest of the duel is valued by
  `outlook.Outlooks`: the
  last round exactly (both sides bet everything), two or three rounds by a normal law of the final PV
  margin whose mean and variance come from the kept characters and the pillz ratio. Leaders count too:
  a Trésor de guerre's refund after each lost round, a Bénédiction's damage taken off the first loss
  (exactly in this round and the last, as PV in hand in the rounds between). So the AI saves
  pillz when little is at stake, spends them when a KO is within reach or threatens, keeps strong
  characters for well-funded rounds, answers a revealed character with the right one, and bets
  everything in the last round; a draw is worth a quarter of a win to it (draws do not win ladders);
- the pick is drawn from a softmax over these chances (temperature `TEMPERATURE`), so it is not
  predictable: options within a few tenths of a point of the best are played often, worse ones rarely;
- every option of a decision is computed at once on NumPy arrays, (my character, the foe's, its bet,
  my bet), with the same operations in the same order as one option at a time (engine/pillz/outlook.py),
  or by the C kernel that computes the same floats when the engine is built (engine/pillz/kernels.pyx).

From round 2 on, `choose` uses the exact search of `engine/pillz/search.py` instead of `evaluate` (the
tree is then small enough). Measured figures: docs/pillz/rules-notes.md, "The AI" (55.85 % wins against
the even-split policy pooled over 6,000 matches, about 75-78 % against the uniform random policy).
"""

from __future__ import annotations

import math
import random

from engine.pillz.rules import blessing_left, figures, lead_seat, leader_total, stats
from engine.pillz.search import Option, exact_options
from engine.pillz.state import ROUNDS, Fighter, PillzState, Play

try:
    from engine.pillz import kernels as kernels  # the tests swap it for the fallback
except ImportError:  # not built, or hidden by ENGINE_PURE=1: the NumPy code computes the same floats
    kernels = None  # type: ignore[assignment]

TEMPERATURE = 0.003  # in units of "chance of winning the duel": 1 point = 0.01


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


def evaluate(state: PillzState, seat: int) -> list[tuple[Play, float]]:
    """Every legal option of `seat` with its estimated chance of winning the duel (`options_now`)."""
    return [(Play(card=card, pillz=bet), v) for card, bet, v in options_now(state, seat)]


def options_now(state: PillzState, seat: int) -> list[Option]:
    """Every legal option of `seat` as (character, pillz, estimated chance of winning the duel), computed
    on a grid of (my character, the foe's, its bet, my bet); each option's total is summed over the
    foe's (character, bet) in order, as a loop over them would add it. Plain tuples: a `Play` is built
    for the option drawn only (a pydantic model per option was a tenth of a lab duel)."""
    foe = 1 - seat
    answering = state.pending is not None and lead_seat(state.first, state.round) == foe
    mine = _unused(state, seat)
    theirs = _unused(state, foe)
    if answering:
        assert state.pending is not None
        candidates = [f for f in state.hands[foe] if f.card_id == state.pending[0]]  # marked used
    else:
        candidates = theirs
    position = (
        *(state.life[seat], state.life[foe], state.max_life[seat], state.max_life[foe]),
        *(state.pillz[seat], state.pillz[foe]),
        blessing_left(state.hands[seat], state.history, seat),
        blessing_left(state.hands[foe], state.history, foe),
        leader_total(state.hands[seat], "war_chest"),
        leader_total(state.hands[foe], "war_chest"),
    )
    bets = foe_bets(state.pillz[foe], rounds_left(state))
    kept = [[f for f in mine if f is not card] for card in mine]
    kept_foe = [[f for f in theirs if f is not other] for other in candidates]
    if kernels is not None:
        rows = kernels.evaluator_totals(
            [[figures(card, other) for other in candidates] for card in mine],
            [stats(k) for k in kept],
            [stats(t) for t in kept_foe],
            [[figures(k[0], t[0]) for t in kept_foe] for k in kept] if len(kept[0]) == 1 else [],
            bets,
            position,
        )
    else:
        from engine.pillz import outlook  # NumPy: the fallback's only

        rows = outlook.totals(position, mine, candidates, kept, kept_foe, bets)
    return [(card.card_id, bet, v) for card, row in zip(mine, rows, strict=True) for bet, v in enumerate(row)]


def _softmax(options: list[Option], rng: random.Random) -> Play:
    best = max(v for _, _, v in options)
    weights = [math.exp((v - best) / TEMPERATURE) for _, _, v in options]
    card, bet, _ = rng.choices(options, weights=weights)[0]
    return Play(card=card, pillz=bet)


def choose_quick(state: PillzState, seat: int, rng: random.Random) -> Play:
    """The AI with the one-round evaluator in every round (a few milliseconds): for the moves the bot must
    make inside a database transaction (a player's timeout), where the exact search would hold the writer."""
    return _softmax(options_now(state, seat), rng)


def choose(state: PillzState, seat: int, rng: random.Random) -> Play:
    """The AI's move: a softmax draw over the options' chances of winning the duel — from `evaluate` in
    round 1, from the exact search (`search.exact_options`) from round 2 on (see the module docstring)."""
    options = options_now(state, seat) if state.round == 1 else exact_options(state, seat)
    return _softmax(options, rng)
