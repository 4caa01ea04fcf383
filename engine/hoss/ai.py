"""Decision policies for HOSS battles (`simulate.Policy`): a cheap heuristic and a stronger player.

A policy answers one decision of a pause: which hand card to play (or pass), which Rang 2 path to take,
where to place a Défenseur, whether to move one. Both policies read the live battle and never change
it, use only what their seat may know (its own hand and deck, every creature in play, the public counts;
never the opponent's hand, pile or secret answers, nor the battle's future random draws), and hold no
random generator: the same battle always gets the same answer.

`simple_policy` — the benchmarks' fixed policy. It plays the strongest card of its hand each round
(attackers by PV x ATK x hits per round at the copy's bonus; Défenseurs once no attacker is left in hand),
takes the first Rang 2 path, puts a Défenseur on its most valuable attacker and never moves it.

`strong_policy()` — built on the threat model of `ai_model.py` (who each enemy aims at, by class prey and
race fear; a hit's expected damage; hits per round; interceptions; lifetimes under fire):

- the card: each playable card (a Défenseur with its best protégé) is put in the model next to my
  creatures, against the enemies in play; the one with the best exchange (share of their PV destroyed
  minus share of mine) wins. When the exchange does not separate them (an empty enemy side, one side
  wiped out either way) the card with the most PV x damage per second does: tempo decides these short
  battles, a weak card played first loses most of them. This plays Défenseurs as soon as they pay (the
  simple policy keeps them for last), races the enemy fears and classes that prey on the enemies in play
  (Lancier on Cavaliers, Cavalier on Défenseurs), and keeps back creatures the enemies would focus.
- the Rang 2 path: each path is tried in `samples` look-aheads of `horizon` rounds on copies of the
  battle (`simulate.clone`) that know no more than the seat (own random stream; the opponent's secret
  answers, hand and pile and the seat's own pile taken out; then both seats only pass), scored by the
  PV x damage each side keeps; the model's exchange breaks ties.
- a Défenseur is placed on the attacker it lets deal the most damage over the lifetimes the model
  predicts, i.e. the one the enemies hit hardest (100 % interception when it resists the attacker's race
  and its protégé fears it), and moved there at a pause when that is worth 10 % more than where it stands.

Measured on mirror matches of random decks from data/hoss.json (tests/engine/hoss/test_ai.py): strong
wins about 62 % of its battles against simple (745 of 1,200, every round restarting the attack cycles). The
card order carries most of it (Défenseurs early, then race and class); the threat model beat look-aheads
for the card (a two-round look-ahead chose worse: the hidden enemy hand and the luck of a few rounds blur
it), so look-aheads are kept for paths.

Cost: the model is a few hundred arithmetic operations per candidate, its pure results kept for the rest of
the pause (`ai_model.Model`); look-aheads only for paths (a few per battle, each at most the rest of the
battle, on an object-by-object copy). A lab battle (ranked opponents, this policy on both seats) costs
about 3 ms of CPU on the development machine, 4 to 5 times the reference battle of
benchmarks/hoss_battles.py (benchmarks/hoss_lab_ai.py; docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.hoss.actions import ChoosePath, HossAction, Move, Pass, Place, Play
from engine.hoss.ai_model import Model, worth
from engine.hoss.battle import Battle
from engine.hoss.bonus import attack_interval_ms, hits_per_round
from engine.hoss.fighters import Fighter, Side
from engine.hoss.simulate import Policy, clone
from engine.hoss.state import CardSpec, CopySpec
from engine.rng import RngState, derive

MOVE_MARGIN = 1.1  # a Défenseur moves only when the new protégé is worth 10 % more damage dealt
WIN_VALUE = 1e15  # a look-ahead that ends the battle outweighs any worth


# --- simple -------------------------------------------------------------------------------------------


def card_worth(card: CardSpec, copy: CopySpec) -> float:
    """PV x ATK x hits per round of a card at its copy's bonus, which also speeds it up (0 for a Défenseur,
    which never strikes): each round restarts the attack cycle, so speed counts by whole hits."""
    if card.cls == "defenseur":
        return 0.0
    scale = 1 + copy.bonus_pm / 1000
    hits = hits_per_round(attack_interval_ms(card.interval_ms, copy.bonus_pm * 10))
    return card.pv * scale * card.atk * scale * hits


def simple_policy(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
    """The strongest card each round, the first path, the Défenseur on the most valuable attacker."""
    first = legal[0]
    if isinstance(first, ChoosePath):
        return first
    side = battle.sides[seat]
    value = {f.uid: card_worth(f.card, f.copy) for f in side.fighters}
    if isinstance(first, Place):
        return max((a for a in legal if isinstance(a, Place)), key=lambda a: value[a.protege])
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return next(a for a in legal if isinstance(a, Pass))

    def strength(uid: str) -> float:
        line = side.line(uid)
        return card_worth(side.cards[line.r1.card], line.r1)

    attackers = [a for a in plays if a.protege is None]
    if attackers:
        return max(attackers, key=lambda a: strength(a.card))  # max keeps the first on a tie: stable

    def toughness(uid: str) -> int:
        line = side.line(uid)
        return side.cards[line.r1.card].pv * (1000 + line.r1.bonus_pm)

    card = max(plays, key=lambda a: toughness(a.card)).card
    return max((a for a in plays if a.card == card), key=lambda a: value[a.protege or ""])


# --- strong -------------------------------------------------------------------------------------------


def _index(units: Sequence[Fighter], uid: str) -> int:
    return next(i for i, u in enumerate(units) if u.uid == uid)


def _place(model: Model, battle: Battle, seat: int, legal: Sequence[Place]) -> Place:
    side = battle.sides[seat]
    mine, enemies = model.field(side), model.field(side.foe)
    defender = legal[0].defender
    protege, _ = model.best_protege(mine, enemies, _index(mine, defender), [a.protege for a in legal])
    return Place(defender, protege)


def _move(model: Model, side: Side, legal: Sequence[HossAction]) -> Move | None:
    """The first Défenseur move worth making, if any."""
    options: dict[str, list[str]] = {}
    for a in legal:
        if isinstance(a, Move):
            options.setdefault(a.defender, []).append(a.protege)
    if not options:
        return None
    mine, enemies = model.field(side), model.field(side.foe)
    for defender, proteges in options.items():
        index = _index(mine, defender)
        guarded = mine[index].protege
        if guarded is None:
            continue
        now = model.placement_score(mine, enemies, index, _index(mine, guarded.uid))
        protege, score = model.best_protege(mine, enemies, index, proteges)
        if score > now * MOVE_MARGIN:
            return Move(defender, protege)
    return None


def _play(model: Model, side: Side, plays: Sequence[Play]) -> Play:
    """The card whose entry gives the best exchange against the enemies in play; then the strongest."""
    mine, enemies = model.field(side), model.field(side.foe)
    best: Play | None = None
    best_key = (0.0, 0.0)
    for card in dict.fromkeys(a.card for a in plays):
        entering = model.hand_creature(side, card)
        proteges = [a.protege for a in plays if a.card == card and a.protege is not None]
        protege = None
        if proteges:
            protege, _ = model.best_protege([*mine, entering], enemies, len(mine), proteges)
            entering.protege = mine[_index(mine, protege)]
        key = (model.exchange([*mine, entering], enemies), worth(entering))
        if best is None or key > best_key:
            best, best_key = Play(card, protege), key
    assert best is not None
    return best


def side_worth(side: Side, with_hand: bool) -> float:
    """PV x damage per second of a side's creatures, a Défenseur counting half its side's average
    attacker; plus the hand at full PV when asked (only for the deciding seat: the other's is hidden)."""
    model = Model()
    units = model.field(side)
    if with_hand:
        units += [model.hand_creature(side, uid) for uid in side.hand]
    rates = [worth(u) / max(u.hp + u.shield, 1) for u in units if not u.is_def]
    guard_rate = 0.5 * sum(rates) / len(rates) if rates else 0.0
    return sum(worth(u) if not u.is_def else (u.hp + u.shield) * guard_rate for u in units)


def _quiet(legal: Sequence[HossAction]) -> HossAction:
    """In a look-ahead, every other decision: the first option, and pass."""
    last = legal[-1]
    return last if isinstance(last, Pass) else legal[0]


def lookahead(battle: Battle, seat: int, action: HossAction, horizon: int, sample: int) -> float:
    """Worth kept by `seat` minus the opponent's creatures' after `horizon` rounds, if `seat` answers
    `action` now and both seats only pass afterwards.

    The copy knows no more than the seat: it gets its own random stream (derived from the battle's seed
    and counter with SHA-256, so it never sees the battle's real future draws), and the opponent's secret
    answers of this pause, its hand and draw pile, and the seat's own draw pile are taken out (their
    counts of attackers stay, so nobody is eliminated early). It ends at the first pause after `horizon`
    rounds, or with the battle: at most the 60 rounds of a battle.
    """
    copy = clone(battle)
    state = battle.rng_state
    copy.rng_state = RngState(seed=derive(state.seed, "hoss-ai-lookahead", state.counter, seat, sample))
    mine, other = copy.sides[seat], copy.sides[1 - seat]
    other.answers = []
    other.hand, other.pile, mine.pile = [], [], []  # hidden: their cards, and the order of my draws
    copy.answer(seat, action)
    stop = copy.round + horizon
    while True:
        for s in copy.waiting():
            legal = copy.legal_actions(s)
            while legal:
                copy.answer(s, _quiet(legal))
                legal = copy.legal_actions(s)
        copy.resume()
        if copy.over or copy.round >= stop:
            break
    if copy.over:
        return WIN_VALUE if seat in copy.winners else -WIN_VALUE if copy.winners else 0.0
    return side_worth(mine, True) - side_worth(other, False)


def _path(
    model: Model, battle: Battle, seat: int, legal: Sequence[ChoosePath], horizon: int, samples: int
) -> ChoosePath:
    if len(legal) == 1:
        return legal[0]
    side = battle.sides[seat]
    mine, enemies = model.field(side), model.field(side.foe)
    index = _index(mine, legal[0].creature)
    current = mine[index]
    best, best_key = legal[0], (0.0, 0.0)
    for n, action in enumerate(legal):
        copy = next(c for c in current.line.r2 if c.card == action.card)
        evolved = model.shadow(side, current.uid, side.cards[copy.card], copy)
        evolved.damage = min(current.damage, evolved.max_hp - 1)
        modelled = model.exchange([*mine[:index], evolved, *mine[index + 1 :]], enemies)
        ahead = sum(lookahead(battle, seat, action, horizon, k) for k in range(samples)) / max(samples, 1)
        if n == 0 or (ahead, modelled) > best_key:
            best, best_key = action, (ahead, modelled)
    return best


def strong_policy(*, horizon: int = 2, samples: int = 2) -> Policy:
    """The stronger player (see the module docstring). `horizon` (rounds) and `samples` bound the cost of
    the Rang 2 path look-aheads; `samples=0` leaves paths to the threat model alone."""

    # The last pause seen, read and replaced as one tuple: its battle, its random stream (a new one each
    # time the battle resumes) and the model every decision of that pause reads, both seats'
    # (`ai_model.Model`). Its caches are keyed by the creatures themselves, so another battle's model
    # could only miss, never answer wrongly.
    pause: list[tuple[Battle, Any, Model]] = []

    def choose(battle: Battle, seat: int, legal: Sequence[HossAction]) -> HossAction:
        first = legal[0]
        last = pause[0] if pause else None
        if last is not None and last[0] is battle and last[1] is battle.rng_state:
            model = last[2]
        else:
            model = Model()
            pause[:] = [(battle, battle.rng_state, model)]
        if isinstance(first, ChoosePath):
            paths = [a for a in legal if isinstance(a, ChoosePath)]
            return _path(model, battle, seat, paths, horizon, samples)
        if isinstance(first, Place):
            return _place(model, battle, seat, [a for a in legal if isinstance(a, Place)])
        side = battle.sides[seat]
        move = _move(model, side, legal)
        if move is not None:
            return move
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return next(a for a in legal if isinstance(a, Pass))
        return _play(model, side, plays)

    return choose


__all__ = ["card_worth", "lookahead", "simple_policy", "strong_policy"]
