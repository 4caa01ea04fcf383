"""Computer opponents for Immortal's War: `choose` (the AI) and `random_policy`.

Both have the signature `(state, seat, rng) -> Choose` and use only what `seat` may know: both line-ups,
the terrain, vitality, past fights, its own spells; never the opponent's spells or pending choice, nor
the game's random stream. Chance comes from the `rng` given.

The AI values a fight analytically instead of rolling it: a strike's wound (Attack roll − Defense roll −
armor, when positive) has an exact mean and variance from the binomial law of D2 dice; over 20 turns the
HP margin is taken as normal, which gives a chance to win the fight. A round's value is that chance times
the damage the unit would deal, minus the chance of losing times the damage it would take, plus the
vitality a healing spell restores now. The opponent's unit is any of its units that have not fought,
equally likely (its choice is secret), and its spells are ignored (unknown).

Spells are planned for the rest of the duel: each of its units that has not fought gets at most one
spell, greedily by the largest gain over fighting without one, and a spell whose terrain or family
condition fails is worth nothing; the unit played now is the one whose planned round is worth most.
Measured against `random_policy`: see docs/immortals/rules-notes.md, "The AI".

A seat's decisions share a table through the duel (`_Table`): each side's numbers and each fight's value
before the heal are computed once and read again in the later rounds, and a fight's chances are memoised
across duels on the numbers they read (`_chances`): the deck lab plays thousands of duels with the AI on
both seats.
`tests/engine/immortals/test_ai_pinned.py` pins every choice: a speed-up may not change one.
"""

from __future__ import annotations

import math
import random
from functools import cache, lru_cache
from operator import attrgetter, itemgetter

from engine.immortals.rules import Numbers, Pair, Side, numbers, spell_acts, strikes_first
from engine.immortals.state import (
    START_VITALITY,
    TURNS,
    Choose,
    ImmortalsState,
    SpellCard,
    Unit,
    engaged,
    spells_left,
    units_left,
)

FIGHTS_KEPT = 1 << 13  # fights whose chances `_chances` keeps: a lab meets the same ones duel after duel
SPREAD = 1.0  # widens the normal law of the HP margin: KOs make a fight less certain than its mean says


def random_policy(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
    """A unit that has not fought, and no spell or one not cast yet, uniformly."""
    units = [u.uid for u in units_left(state, seat)]
    spells: list[str | None] = [None, *(s.sid for s in spells_left(state, seat))]
    return Choose(unit=rng.choice(units), spell=rng.choice(spells))


@cache
def _dice(n: int) -> tuple[tuple[int, float], ...]:
    """The law of the sum of n D2 dice: (value, probability) pairs."""
    if n <= 0:
        return ((0, 1.0),)
    return tuple((n + k, math.comb(n, k) / 2**n) for k in range(n + 1))


@cache
def wound(attack: int, defense: int, armor: int) -> tuple[float, float]:
    """Mean and variance of one strike's wound: max(0, Attack roll − Defense roll − armor)."""
    mean = square = 0.0
    for a, pa in _dice(attack):
        for d, pd in _dice(defense):
            w = a - d - armor
            if w > 0:
                mean += pa * pd * w
                square += pa * pd * w * w
    return mean, square - mean * mean


def _net_loss(wound_law: tuple[float, float], regen: int) -> tuple[float, float]:
    mean, var = wound_law
    # Regeneration heals no more than the wounds taken (HP never exceed the start).
    return mean - min(regen, mean), var


def win_chance(mine: Numbers, theirs: Numbers, first_is_mine: bool) -> tuple[float, float]:
    """Chances that `mine` wins and loses the fight (the rest is a drawn fight), from a normal law of the
    HP margin after 20 turns; the side striking first gets half a strike more."""
    return _chances(
        (mine.attack, mine.defense, mine.armor, mine.regen, mine.hp),
        (theirs.attack, theirs.defense, theirs.armor, theirs.regen, theirs.hp),
        first_is_mine,
    )


# (Attack, Defense, armor, regeneration, HP): all a fight's chances depend on of one side's numbers.
Fighting = tuple[int, int, int, int, int]


@lru_cache(maxsize=FIGHTS_KEPT)
def _chances(mine: Fighting, theirs: Fighting, first_is_mine: bool) -> tuple[float, float]:
    """`win_chance`, memoised on the numbers it reads: fights that differ by their damage, a heal or a
    spell's terrain only have the same chances."""
    in_mean, in_var = _net_loss(wound(theirs[0], mine[1], mine[2]), mine[3])
    out_mean, out_var = _net_loss(wound(mine[0], theirs[1], theirs[2]), theirs[3])
    edge = 0.5 if first_is_mine else -0.5
    margin = (mine[4] - TURNS * in_mean) - (theirs[4] - TURNS * out_mean) + edge * (in_mean + out_mean)
    spread = SPREAD * math.sqrt(2 * (TURNS * (in_var + out_var) + 1.0))
    win = 0.5 * (1 + math.erf((margin - 0.5) / spread))
    lose = 0.5 * (1 + math.erf((-margin - 0.5) / spread))
    return win, lose


def _margin(mine: Numbers, theirs: Numbers, seat: int, engager: int) -> float:
    """A fight's value before the heal (`fight_value` less `mine.healed`): what it reads of the numbers
    does not depend on the vitality missing."""
    win, lose = _chances(
        (mine.attack, mine.defense, mine.armor, mine.regen, mine.hp),
        (theirs.attack, theirs.defense, theirs.armor, theirs.regen, theirs.hp),
        strikes_first(mine, theirs, engager == seat),
    )  # `win_chance`, one call fewer: some 300 a lab duel
    return win * mine.power - lose * theirs.power


def fight_value(mine: Numbers, theirs: Numbers, seat: int, engager: int) -> float:
    """Expected vitality margin of a fight between `mine` (`seat`'s numbers) and `theirs`: the chance to
    win times the damage dealt, minus the chance to lose times the damage taken, plus the vitality a heal
    restores."""
    return _margin(mine, theirs, seat, engager) + mine.healed


def side_value(state: ImmortalsState, seat: int, mine: Side, foe: Side) -> float:
    """Expected vitality margin of the round where `mine` meets `foe` (`fight_value`)."""
    sides = _sides(seat, mine, foe)
    own = numbers(seat, sides, state.terrain, START_VITALITY - state.vitality[seat])
    theirs = numbers(1 - seat, sides, state.terrain, 0)
    return fight_value(own, theirs, seat, state.engager)


# A table's entry for one of my options: my numbers, their fights' `_margin` by the foe's unit id, and
# my spell's id when it changes the foe's numbers (`_Table._acting`), else None.
Option = tuple[Numbers, dict[str, float], str | None]


class _Table:
    """What a seat's decisions share through a duel: the numbers of its options and the foes', and the
    fights' values before the heal, computed once and read again round after round.

    All of it is a function of the two line-ups, the seat's spells, the terrain and the engaging seat
    (`fits`); a decision only adds the heal its vitality allows and averages over the foes left. My
    numbers depend on my unit, my spell and the foe's spell acting on me; a foe's on the foe, its spell,
    and my spell only when it acts on my unit with "foe" effects: otherwise they are the foe's numbers
    without it. The foe casts nothing in the plan, so a duel's plans compute at most 36 numbers of mine,
    4 of the foes' plus 4 per spell of mine that hinders them, and 144 fights; a counter computes its
    fights against the engaged side anew (`against`), a side met once."""

    def __init__(self, state: ImmortalsState, seat: int) -> None:
        self.seat = seat
        self.units = state.units
        self.spells = state.spells[seat]
        self.terrain = state.terrain
        self.engager = state.engager
        self.hinders = {s.sid for s in self.spells if any(e.target == "foe" for e in s.effects)}
        self.anyone = state.units[1 - seat][0]  # the foe's unit when it casts nothing: not read
        # By my (unit id, spell id or None): my numbers when the foe casts nothing that changes them, with
        # the most vitality missing (`healed` is what the spell can restore; a decision's heal is the least
        # of it and the vitality missing then, at most START_VITALITY, as `numbers` takes it): an `Option`.
        self.options: dict[tuple[str, str | None], Option] = {}
        # The foe's numbers by (foe's unit id, the id of my spell acting on them or None).
        self.theirs: dict[tuple[str, str | None], Numbers] = {}

    def fits(self, state: ImmortalsState, seat: int) -> bool:
        """Whether `state`'s seat `seat` has this table's line-ups, spells, terrain and engaging seat (the
        same objects, which this table keeps alive: a duel's states share them)."""
        return (
            self.seat == seat
            and self.units is state.units
            and self.spells is state.spells[seat]
            and self.terrain == state.terrain
            and self.engager == state.engager
        )

    def _option(self, unit: Unit, spell: SpellCard | None, key: tuple[str, str | None]) -> Option:
        option = self.options.get(key)
        if option is None:
            sides = _sides(self.seat, (unit, spell), (self.anyone, None))
            mine = numbers(self.seat, sides, self.terrain, START_VITALITY)
            option = self.options[key] = (mine, {}, self._acting(mine, spell))
        return option

    def _acting(self, mine: Numbers, spell: SpellCard | None) -> str | None:
        """My spell's id when it changes the foe's numbers, else None."""
        if spell is None or not mine.spell_acted or spell.sid not in self.hinders:
            return None
        return spell.sid

    def values(self, units: list[Unit], spells: list[SpellCard], foes: list[Unit], missing: int) -> Values:
        """`round_value` of each unit with each spell or none, the foe's unit drawn among `foes`, with
        `missing` vitality missing."""
        seat, terrain, engager = self.seat, self.terrain, self.engager
        uids = [foe.uid for foe in foes]
        values: Values = {}
        for unit in units:
            for spell in (None, *spells):
                key = (unit.uid, None if spell is None else spell.sid)
                option = self.options.get(key)
                mine, row, acting = self._option(unit, spell, key) if option is None else option
                healed = mine.healed if mine.healed < missing else missing
                total = 0.0
                for n, uid in enumerate(uids):
                    margin = row.get(uid)
                    if margin is None:
                        theirs = self.theirs.get((uid, acting))
                        if theirs is None:
                            sides = _sides(seat, (unit, spell), (foes[n], None))
                            theirs = self.theirs[uid, acting] = numbers(1 - seat, sides, terrain, 0)
                        margin = row[uid] = _margin(mine, theirs, seat, engager)
                    total += margin + healed
                values[key] = total / len(uids)
        return values

    def against(self, units: list[Unit], spells: list[SpellCard], engaged: Side, missing: int) -> Values:
        """`side_value` of each unit with each spell or none against `engaged`, the side the counter
        answers; my numbers are the table's when its spell does not change them."""
        seat, terrain = self.seat, self.terrain
        foe_spell = engaged.spell
        hindered = (
            foe_spell is not None
            and spell_acts(foe_spell, engaged.unit, terrain)
            and any(e.target == "foe" for e in foe_spell.effects)
        )
        theirs_by_spell: dict[str | None, Numbers] = {}
        values: Values = {}
        for unit in units:
            for spell in (None, *spells):
                key = (unit.uid, None if spell is None else spell.sid)
                if hindered:
                    mine = numbers(seat, _sides(seat, (unit, spell), engaged), terrain, missing)
                    healed = mine.healed
                    acting = self._acting(mine, spell)
                else:
                    option = self.options.get(key)
                    mine, _, acting = self._option(unit, spell, key) if option is None else option
                    healed = mine.healed if mine.healed < missing else missing
                theirs = theirs_by_spell.get(acting)
                if theirs is None:
                    sides = _sides(seat, (unit, spell), engaged)
                    theirs = theirs_by_spell[acting] = numbers(1 - seat, sides, terrain, 0)
                values[key] = _margin(mine, theirs, seat, self.engager) + healed
        return values


# One table per seat: the lab plays its duels one after the other, the AI on both seats.
_TABLES: dict[int, _Table] = {}


def _table(state: ImmortalsState, seat: int) -> _Table:
    table = _TABLES.get(seat)
    if table is None or not table.fits(state, seat):
        table = _TABLES[seat] = _Table(state, seat)
    return table


def _missing(state: ImmortalsState, seat: int) -> int:
    return START_VITALITY - state.vitality[seat]


def round_value(
    state: ImmortalsState, seat: int, unit: Unit, spell: SpellCard | None, foes: list[Unit]
) -> float:
    """Expected vitality margin of fighting with `unit` and `spell`, the foe's unit drawn among `foes`.

    The foe casts no spell in this model, so my unit's numbers do not depend on which foe it meets."""
    spells = [] if spell is None else [spell]
    values = _Table(state, seat).values([unit], spells, foes, _missing(state, seat))
    return values[unit.uid, None if spell is None else spell.sid]


def _sides(seat: int, own: Pair, foe: Pair) -> tuple[Pair, Pair]:
    return (own, foe) if seat == 0 else (foe, own)


# The value of a round by (unit id, spell id or None): what `_assign` shares the spells by.
Values = dict[tuple[str, str | None], float]


# A spell's gain for a unit: (gain over fighting without a spell, the spell's rank, unit id, spell).
Gain = tuple[float, int, str, SpellCard]


def _gains(values: Values, units: list[Unit], spells: list[SpellCard]) -> list[Gain]:
    """Every (unit, spell) gain, largest first, then by the spell's rank and the unit's id: listed by rank
    and id, then sorted on the gain alone, which keeps the order of equal gains (a stable sort, reversed
    or not)."""
    by_id = sorted(units, key=attrgetter("uid"))
    gains = [
        (values[u.uid, s.sid] - values[u.uid, None], n, u.uid, s) for n, s in enumerate(spells) for u in by_id
    ]
    gains.sort(key=itemgetter(0), reverse=True)
    return gains


def _assign(
    values: Values, units: list[Unit], gains: list[Gain]
) -> dict[str, tuple[SpellCard | None, float]]:
    """Each unit with the spell planned for it (or None) and the value of its round (`_given`)."""
    given = _given(gains, None, len(units))
    planned: dict[str, tuple[SpellCard | None, float]] = {}
    for u in units:
        spell_gain = given.get(u.uid)
        if spell_gain is None:
            planned[u.uid] = (None, values[u.uid, None])
        else:
            planned[u.uid] = (spell_gain[0], values[u.uid, None] + spell_gain[1])
    return planned


def _planned_totals(values: Values, units: list[Unit], spells: list[SpellCard], gains: list[Gain]) -> Values:
    """For each unit and spell played now (or none), the sum of the planned values of the rounds left
    without them (`_assign`'s, added in the same order).

    One greedy pass per unit played, with no spell spent: a spell that pass gives no unit leaves the plan
    as it is when spent too (its gains were passed over for their unit, and nothing else the pass reads
    changes), so only the spells it gives need a pass of their own, at most 3 of 9 options a unit."""
    totals: Values = {}
    for unit in units:
        others = [u for u in units if u.uid != unit.uid]
        given = _given(gains, (unit.uid, None), len(others))
        unspent = _total(values, others, given)
        planned = {spell.sid for spell, _ in given.values()}
        totals[unit.uid, None] = unspent
        for spell in spells:
            spent = (unit.uid, spell.sid)
            totals[spent] = (
                _total(values, others, _given(gains, spent, len(others))) if spell.sid in planned else unspent
            )
    return totals


def _total(values: Values, units: list[Unit], given: dict[str, tuple[SpellCard, float]]) -> float:
    """The sum of the planned rounds' values of `units`, spells as `given`, added as `_assign` gives them."""
    total = 0.0  # `sum` starts from the int 0, which adds as 0.0: the same additions, in the same order
    for u in units:
        spell_gain = given.get(u.uid)
        total += values[u.uid, None] if spell_gain is None else values[u.uid, None] + spell_gain[1]
    return total


def _given(
    gains: list[Gain], spent: tuple[str, str | None] | None, room: int
) -> dict[str, tuple[SpellCard, float]]:
    """At most one spell per unit, greedily by the largest gain over fighting without one (`gains`, from
    `_gains`): the units given one, with their spell and its gain. The unit and spell of `spent` (played
    this round) are left out: the order of the gains left is the one `_gains` gives without them, so the
    counter sorts once for all its options. Once the `room` units that may get one have one, the gains left
    would all be passed over: the pass stops there (the counter makes some 30 passes a duel)."""
    blocked, taken = (None, set()) if spent is None else (spent[0], {spent[1]})
    given: dict[str, tuple[SpellCard, float]] = {}
    if room <= 0:
        return given
    for gain, _, uid, spell in gains:
        if gain <= 0:
            break
        if uid == blocked or uid in given or spell.sid in taken:
            continue
        given[uid] = (spell, gain)
        if len(given) == room:
            break
        taken.add(spell.sid)
    return given


def plan(state: ImmortalsState, seat: int) -> dict[str, tuple[SpellCard | None, float]]:
    """Each unit still to fight, with the spell planned for it and the value of its round, the foe's
    unit any of its units left."""
    units = units_left(state, seat)
    spells = spells_left(state, seat)
    values = _table(state, seat).values(units, spells, units_left(state, 1 - seat), _missing(state, seat))
    return _assign(values, units, _gains(values, units, spells))


def counter(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
    """The counter, knowing the engaged unit and spell: the unit and spell whose round against them,
    plus the planned value of the rounds left without them, is worth most."""
    foe = 1 - seat
    attack = engaged(state)
    assert attack is not None
    foe_unit = next(u for u in state.units[foe] if u.uid == attack.unit)
    foe_spell = next((s for s in state.spells[foe] if s.sid == attack.spell), None)
    units = units_left(state, seat)
    spells = spells_left(state, seat)
    later_foes = [u for u in units_left(state, foe) if u.uid != foe_unit.uid]
    table, missing = _table(state, seat), _missing(state, seat)
    later = table.values(units, spells, later_foes, missing) if later_foes else {}
    now = table.against(units, spells, Side(foe_unit, foe_spell), missing)
    totals = _planned_totals(later, units, spells, _gains(later, units, spells)) if later else {}
    # The largest (value, draw) pair, compared as tuples are (values are never NaN) without building one
    # per option: 36 a counter.
    draw = rng.random
    best: tuple[str, SpellCard | None] | None = None
    best_value = best_draw = 0.0
    for unit in units:
        for spell in (None, *spells):
            key = (unit.uid, None if spell is None else spell.sid)
            value = now[key] + totals[key] if later else now[key]
            drawn = draw()
            if best is None or value > best_value or (value == best_value and drawn > best_draw):
                best, best_value, best_draw = (unit.uid, spell), value, drawn
    assert best is not None
    return Choose(unit=best[0], spell=None if best[1] is None else best[1].sid)


def choose(state: ImmortalsState, seat: int, rng: random.Random) -> Choose:
    """The AI's choice for the round: it engages, or counters what was engaged (module docstring)."""
    if seat != state.engager and engaged(state) is not None:
        return counter(state, seat, rng)
    planned = plan(state, seat)
    order = sorted(planned, key=lambda uid: (-planned[uid][1], rng.random()))
    uid = order[0]
    spell = planned[uid][0]
    return Choose(unit=uid, spell=None if spell is None else spell.sid)


def forget() -> None:
    """Empty the memos of fights: what a fresh process starts from, which a benchmark measures."""
    _TABLES.clear()
    _chances.cache_clear()
