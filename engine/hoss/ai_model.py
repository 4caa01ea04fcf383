"""The strong AI's threat model: who hits whom, how hard, and how long each creature lasts.

Everything is an expectation computed from the creatures' derived stats (no random draw):

- targeting as the rules do it (`targeting.preferred`): the class's prey first (Cavalier: Défenseurs;
  Lancier: Cavaliers, then Défenseurs), then the creatures that fear the attacker's race, uniformly;
- a hit's expected damage: Squelette avoidance, dodge, the additive modifiers (race fear and resistance,
  elements, class table, armour break, Dégât buff), crit, a Défenseur's reduction and block (80 % against
  arrows aimed at it, halved by a Lancier), plus a rough worth for the statuses it may put on;
- hits per second = hits per round / 5 s at the current cycle (interval, Gel included): every round
  restarts each attack cycle, so a creature lands ceil(5 s / cycle) - 1 hits per round (a 2.6 s creature
  one, not 1.92) and speed counts by steps;
- interception: each Défenseur on a protégé takes 70 % of the hits aimed at it, 100 % when it resists the
  attacker's race and the protégé fears it;
- a creature's lifetime is its PV (and shield) over the damage per second it takes, capped at
  `LIFE_CAP_S`; what it deals over that lifetime is its worth in the exchange.

The model reads creatures and never changes them: hypothetical creatures (hand cards, Rang 2 paths, creatures
of a battle just restored from a state, whose stats are computed lazily) are built on their side without
joining it. Building one reads the side's deck, synergy and buffs and may add an entry to the side's stats
cache, a memo of pure values keyed by card and total bonus under the side's buffs: the battle plays on
exactly as it would have.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.hoss.bonus import hits_per_round
from engine.hoss.fighters import Fighter, Side
from engine.hoss.rules import (
    ARCHER,
    ARROW_BLOCK_BP,
    BP,
    CAVALIER,
    INTERCEPT_BP,
    LANCIER,
    ROUND_MS,
    SQUELETTE,
    SQUELETTE_AVOID_BP,
    STATUSES,
)
from engine.hoss.state import CardSpec, CopySpec
from engine.hoss.statuses import cycle

INTERCEPT = INTERCEPT_BP / BP
ARROW_BLOCK = ARROW_BLOCK_BP / BP
SQUELETTE_HIT = 1.0 - SQUELETTE_AVOID_BP / BP

# Rough worth of one status put on, in hits (rules order: poison, saignement, embrasement, bris, gel, choc,
# confusion): a Saignement stack ticks 20 % of the hit every 2.5 s for the rest of the battle, a Poison
# stack 30 % at each round end, an Embrasement 10 % a second until it goes out (70 % per round)...
STATUS_WORTH: tuple[float, ...] = (0.45, 0.6, 0.3, 0.1, 0.2, 0.3, 0.1)
assert len(STATUS_WORTH) == len(STATUSES)
LIFE_CAP_S = 10.0  # horizon of the exchange: creatures deal damage over at most this many seconds

Guards = dict[int, list[int]]  # attacker index -> indices of the Défenseurs standing on it


def hit_rate(f: Fighter) -> float:
    """Hits per second, as the rounds deal them: each round restarts the cycle, so its hits per round."""
    return hits_per_round(cycle(f)) * 1000.0 / ROUND_MS


def dps(f: Fighter) -> float:
    """Expected damage per second (centi-PV) before any defence: ATK, crit, hits per second."""
    if f.is_def:
        return 0.0
    return f.atk * (1.0 + f.crit * (f.crit_mult - 1.0)) * hit_rate(f)


def worth(f: Fighter) -> float:
    """PV x damage per second: who wins a duel of two creatures (0 for a Défenseur)."""
    return (f.hp + f.shield) * dps(f)


def hit_value(a: Fighter, t: Fighter, aimed: bool = True) -> float:
    """Expected damage (centi-PV) of one hit of `a` on `t`; `aimed` is False for an intercepted hit."""
    dmg = a.atk * (1.0 + a.mod_vs[t.key] + t.bris) * (1.0 + a.crit * (a.crit_mult - 1.0))
    lands = 1.0 - t.dodge[a.cls]
    if t.race == SQUELETTE and a.cls in (LANCIER, ARCHER):
        lands *= SQUELETTE_HIT
    if t.is_def:
        dmg *= 1.0 - t.reduction
        block = ARROW_BLOCK if a.cls == ARCHER and aimed else t.block * (BP - t.gel_bp) / BP
        if a.cls == LANCIER:
            block *= 0.5
        lands *= 1.0 - block
    extra = 0.0
    for status, chance in a.statuses:
        if not t.immune >> status & 1:
            extra += chance * STATUS_WORTH[status]
    return dmg * lands * (1.0 + extra)


def pool(a: Fighter, units: Sequence[Fighter]) -> list[int]:
    """Indices of `units` that `a` aims at, every one equally likely (`targeting.preferred`)."""
    every = list(range(len(units)))
    found = every
    if a.cls == CAVALIER:
        found = [i for i in every if units[i].is_def] or every
    elif a.cls == LANCIER:
        found = (
            [i for i in every if units[i].cls == CAVALIER] or [i for i in every if units[i].is_def] or every
        )
    bit = a.race_bit
    return [i for i in found if units[i].fears_race & bit] or found


def guards_of(units: Sequence[Fighter]) -> Guards:
    for u in units:
        if u.is_def:
            break
    else:
        return {}
    where = {u.uid: i for i, u in enumerate(units)}
    guards: Guards = {}
    for i, u in enumerate(units):
        if u.is_def and u.protege is not None and u.protege.uid in where:
            guards.setdefault(where[u.protege.uid], []).append(i)
    return guards


Aim = tuple[float, list[tuple[int, Fighter, float]], float]


class Model:
    """One pause's threat model: the functions below, with their pure results kept while the seats
    decide.

    Nothing changes in the battle during a pause (answers stay secret until the round resumes), so a
    hit's expected damage and what an attacker aims at on a given side (its targets, its hits per second
    on each, its damage output) are computed once per pause instead of once per candidate card, protégé
    or path, and once for both seats, which see the same creatures. A cache is keyed by the
    creatures themselves (never by `id`, which a freed shadow could pass to the next), and the same
    expressions are evaluated in the same order, so every figure is bit for bit the one an uncached
    evaluation gives: the AI decides exactly the same, only sooner. A `Model` lives for one pause
    (`ai.py` keeps one per battle and random stream): kept longer, it would read creatures that have
    changed.
    """

    __slots__ = ("_aims", "_hits")

    def __init__(self) -> None:
        self._hits: dict[tuple[Fighter, Fighter, bool], float] = {}
        self._aims: dict[tuple[Fighter, ...], dict[Fighter, Aim]] = {}

    def shadow(self, side: Side, uid: str, card: CardSpec, copy: CopySpec) -> Fighter:
        """A creature as it would be in play on `side`, not added to it: a hand card, a Rang 2 path."""
        g = Fighter(uid, side, card, copy)
        g.refresh()
        return g

    def hand_creature(self, side: Side, uid: str) -> Fighter:
        """Hand card `uid` as it would enter play (its Rang 1 copy)."""
        line = side.line(uid)
        return self.shadow(side, uid, side.cards[line.r1.card], line.r1)

    def fresh(self, f: Fighter) -> Fighter:
        """`f` with its derived stats computed: itself in a running battle; in a battle just restored from
        a state (stats computed lazily) a copy, so the live battle is never touched."""
        if f.max_hp:
            return f
        g = self.shadow(f.side, f.uid, f.card, f.copy)
        g.damage = min(f.damage, g.max_hp - 1)
        g.shield = f.shield
        g.bris_bp = f.bris_bp
        g.bris = f.bris_bp / BP
        g.gel_bp = f.gel_bp
        g.frozen = f.frozen
        g.protege = f.protege
        return g

    def field(self, side: Side) -> list[Fighter]:
        """A side's creatures in play, in play order, with their stats."""
        return [self.fresh(f) for f in side.fighters]

    def hit(self, a: Fighter, t: Fighter, aimed: bool = True) -> float:
        key = (a, t, aimed)
        value = self._hits.get(key)
        if value is None:
            value = self._hits[key] = hit_value(a, t, aimed)
        return value

    def aims_on(self, units: tuple[Fighter, ...]) -> dict[Fighter, Aim]:
        """The aims at `units` computed so far, by attacker (`aim`): looked up once per side tried, then
        by attacker, rather than hashing the side again for each attacker."""
        found = self._aims.get(units)
        if found is None:
            found = self._aims[units] = {}
        return found

    def aim(self, a: Fighter, units: tuple[Fighter, ...], kept: dict[Fighter, Aim]) -> Aim:
        """What attacker `a` (not a Défenseur, not frozen) does to `units`, the same for every protégé,
        path and card tried against them: its hits per second on each of its targets, each target
        (index, creature, expected damage of a hit aimed at it), and its damage per second on them;
        kept in `kept`, `aims_on(units)`."""
        targets = pool(a, units)
        rate = hits_per_round(cycle(a)) * 1000.0 / ROUND_MS  # `hit_rate`
        hits = self._hits
        aimed = []
        for i in targets:  # `hit`, written out: several targets per aim
            t = units[i]
            value = hits.get((a, t, True))
            if value is None:
                value = hits[a, t, True] = hit_value(a, t, True)
            aimed.append((i, t, value))
        output = rate * sum(value for _, _, value in aimed) / len(aimed)
        found = kept[a] = (rate / len(targets), aimed, output)
        return found

    def incoming(self, mine: Sequence[Fighter], enemies: Sequence[Fighter], guards: Guards) -> list[float]:
        """Expected damage per second (centi-PV) each of `mine` takes from `enemies`, interceptions
        included."""
        taken = [0.0] * len(mine)
        if not mine:
            return taken
        units = tuple(mine)
        aims = self.aims_on(units)
        for a in enemies:
            if a.is_def or a.frozen:
                continue
            rate, aimed, _ = aims.get(a) or self.aim(a, units, aims)
            if not guards:  # nobody intercepts: rate x 1.0 x value is rate x value, bit for bit
                for i, _, value in aimed:
                    taken[i] += rate * value
                continue
            bit = a.race_bit
            for i, t, value in aimed:
                stood = guards.get(i)
                if stood is None:
                    taken[i] += rate * value
                    continue
                left = 1.0
                for d in stood:
                    guard = units[d]
                    share = left * (1.0 if guard.resists_race & bit and t.fears_race & bit else INTERCEPT)
                    taken[d] += rate * share * self.hit(a, guard, False)
                    left -= share
                taken[i] += rate * left * value
        return taken

    def lifetime_damage(self, mine: Sequence[Fighter], enemies: Sequence[Fighter], guards: Guards) -> float:
        """What `mine` deal in total, each until it dies under the enemies' expected fire (capped): its
        damage per second on the enemies (the same whatever the Défenseurs guard and whoever stands
        beside it) over its lifetime. A creature that deals nothing adds 0.0, which changes no sum."""
        total = 0.0
        if not enemies:
            return total
        them = tuple(enemies)
        aims = self.aims_on(them)
        for u, rate in zip(mine, self.incoming(mine, enemies, guards), strict=True):
            if u.is_def or u.frozen:
                continue
            out = (aims.get(u) or self.aim(u, them, aims))[2]
            life = LIFE_CAP_S if rate <= 0 else min(LIFE_CAP_S, (u.max_hp - u.damage + u.shield) / rate)
            total += out * life
        return total

    def exchange(self, mine: Sequence[Fighter], enemies: Sequence[Fighter]) -> float:
        """The share of the enemies' PV my creatures destroy minus the share of mine they destroy, each
        capped at 1 (a whole side): from -1 (I lose everything, they lose nothing) to 1."""
        if not mine:
            return -1.0
        if not enemies:
            return 1.0
        mine_hp = sum(u.max_hp - u.damage + u.shield for u in mine)
        their_hp = sum(u.max_hp - u.damage + u.shield for u in enemies)
        dealt = self.lifetime_damage(mine, enemies, guards_of(mine)) / their_hp
        suffered = self.lifetime_damage(enemies, mine, guards_of(enemies)) / mine_hp
        return min(1.0, dealt) - min(1.0, suffered)

    def placement_score(
        self, mine: Sequence[Fighter], enemies: Sequence[Fighter], defender: int, protege: int
    ) -> float:
        """What my creatures deal over their lifetimes if Défenseur `defender` stands on `protege`
        (indices of `mine`), every other Défenseur staying where it is."""
        guards = {i: [d for d in stood if d != defender] for i, stood in guards_of(mine).items()}
        guards.setdefault(protege, []).append(defender)
        return self.lifetime_damage(mine, enemies, guards)

    def best_protege(
        self, mine: Sequence[Fighter], enemies: Sequence[Fighter], defender: int, options: Sequence[str]
    ) -> tuple[str, float]:
        """The protégé among `options` (uids of `mine`) with the best `placement_score`; the first on a
        tie."""
        where = {u.uid: i for i, u in enumerate(mine)}
        best, best_score = options[0], -1.0
        for uid in options:
            score = self.placement_score(mine, enemies, defender, where[uid])
            if score > best_score:
                best, best_score = uid, score
        return best, best_score
