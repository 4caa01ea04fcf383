"""The seven status markers: putting them on, their ticks, and how they fade at the end of a round.

A stack's value is a share of the hit that applied it (the hit's final damage, in centi-PV):
Poison 30 % (ticks at the round's end), Saignement 20 % (every 2.5 s), Embrasement 10 % (every second,
may crit with the crit chance and multiplier of whoever lit the latest stack), Bris d'armure 5 % read as
a percentage of extra damage taken (a hit of 18 PV adds +0.9 %), Gel as many % as the hit's PV (a hit of
18 → 18 %). Choc and Confusion carry no value (the rulebook's "—"): a new Choc restarts its 2.5 s, a new
Confusion changes nothing. All valued stacks add up and never expire, except Embrasement (70 % chance to
go out at each round end) and Gel (-10 points at each round end; a creature frozen at 100 % thaws fully at
the round's end; a Fire hit thaws it at once).

Tick timers start when the first stack lands and run on the continuous battle clock, across rounds: they
are not attack cycles, which every round restarts (`Battle.run_round`). Choc and a thaw after a freeze
restart a cycle from zero; a change of pace (Gel put on, fading or melted) re-times the pending hit to the
cycle's start + the new cycle, never earlier than now. Ticks are raw damage: no dodge, interception,
block, armour break or resistance (their value already came from a hit that went through all of that); a
shield absorbs them.
"""

from __future__ import annotations

from heapq import heappush
from typing import TYPE_CHECKING

from engine.hoss.bonus import slowed_interval_ms
from engine.hoss.fighters import Fighter
from engine.hoss.rules import (
    BLEED_PCT,
    BLEED_PERIOD_MS,
    BP,
    BRIS,
    BRIS_PCT,
    BURN_OUT_BP,
    BURN_PCT,
    BURN_PERIOD_MS,
    CHOC,
    CONFUSION,
    EMBRASEMENT,
    GEL,
    GEL_DECAY_BP,
    GEL_FULL_BP,
    POISON,
    POISON_PCT,
    SAIGNEMENT,
    SHOCK_MS,
    STATUSES,
)

if TYPE_CHECKING:
    from engine.hoss.battle import Battle

ATTACK, BLEED_TICK, BURN_TICK, DEFLECTION = range(4)


def cycle(fighter: Fighter) -> int:
    """The fighter's current time between two hits, Gel included."""
    if fighter.gel_bp:
        return slowed_interval_ms(fighter.interval, fighter.gel_bp)
    return fighter.interval


def schedule_attack(b: Battle, fighter: Fighter, at: int) -> None:
    """A new attack cycle starts at `at` (a round's start, a hit, a shock's end, a thaw, a revival): the
    next hit lands one cycle later if that is still inside this round; one due at or after the round's end
    never comes, since the next round starts a new cycle."""
    fighter.cycle_start = at
    when = at + (slowed_interval_ms(fighter.interval, fighter.gel_bp) if fighter.gel_bp else fighter.interval)
    fighter.attack_at = when
    if when < b.round_end:  # `Battle.push`, written out: a cycle starts at almost every hit
        heappush(b.heap, (when, b.rnd(), b.seq, ATTACK, fighter))
        b.seq += 1


def retime(b: Battle, fighter: Fighter, now: int) -> None:
    """The fighter's cycle length changed at `now` (Gel, synergy, evolution): its pending hit moves to the
    cycle's start + the new cycle, but never earlier than `now`. No-op without a pending hit (Défenseur,
    frozen, dead, in the middle of its own attack) or when the time does not change."""
    if fighter.attack_at < 0:
        return
    when = fighter.cycle_start + cycle(fighter)
    if when < now:
        when = now
    if when != fighter.attack_at:
        fighter.attack_at = when  # the old heap entry no longer matches: it is skipped when popped
        if when < b.round_end:
            b.push(when, ATTACK, fighter)


def apply_status(
    b: Battle, source: Fighter, target: Fighter, status: int, amount: int, stacks: int, t: int
) -> None:
    """Put `stacks` stacks of `status` from a hit of `amount` centi-PV; an immunity stops only this."""
    entries = b.entries
    if target.immune >> status & 1:
        if entries is not None:
            entries.append(
                {
                    "t": t - b.round_start,
                    "k": "immune",
                    "src": source.uid,
                    "tgt": target.uid,
                    "st": STATUSES[status],
                }
            )
        return
    value = _add_stacks(b, source, target, status, amount, stacks, t)
    if entries is not None:
        entries.append(
            {
                "t": t - b.round_start,
                "k": "status",
                "src": source.uid,
                "tgt": target.uid,
                "st": STATUSES[status],
                "n": stacks,
                "v": value,
                "frozen": target.frozen,
            }
        )


def _add_stacks(
    b: Battle, source: Fighter, target: Fighter, status: int, amount: int, stacks: int, t: int
) -> int:
    """The status's effect on `target`; returns the value its log entry shows."""
    if status in (POISON, SAIGNEMENT, EMBRASEMENT):
        return _add_damage_over_time(b, source, target, status, amount, stacks, t)
    if status == BRIS:
        value = amount * BRIS_PCT // 100 * stacks
        target.bris_bp += value
        target.bris = target.bris_bp / BP
        return value
    if status == GEL:
        return _add_gel(b, target, amount * stacks, t)
    if status == CHOC:
        target.shock_until = t + SHOCK_MS
        if not target.is_def and not target.frozen:
            schedule_attack(b, target, target.shock_until)
        return SHOCK_MS
    if status == CONFUSION:
        target.confused = True
    return 0


def _add_damage_over_time(
    b: Battle, source: Fighter, target: Fighter, status: int, amount: int, stacks: int, t: int
) -> int:
    """Poison, bleeding or burning: a share of the hit's `amount` per stack; a first bleed or burn starts
    its ticks. Burning takes the source's critical chance and multiplier."""
    if status == POISON:
        value = amount * POISON_PCT // 100 * stacks
        target.poison += value
        return value
    if status == SAIGNEMENT:
        value = amount * BLEED_PCT // 100 * stacks
        if not target.bleed and value:
            target.bleed_next = t + BLEED_PERIOD_MS
            if target.bleed_next < b.round_end:
                b.push(target.bleed_next, BLEED_TICK, target)
        target.bleed += value
        return value
    value = amount * BURN_PCT // 100 * stacks
    if not target.burn and value:
        target.burn_next = t + BURN_PERIOD_MS
        if target.burn_next < b.round_end:
            b.push(target.burn_next, BURN_TICK, target)
    target.burn += value
    target.burn_crit_bp = round(source.crit * BP)
    target.burn_mult_bp = round(source.crit_mult * BP)
    return value


def _add_gel(b: Battle, target: Fighter, hit: int, t: int) -> int:
    """Gel builds up to frozen (its attacks stop); below that it slows the target's pace at once."""
    if target.frozen:
        return 0
    value = min(hit, GEL_FULL_BP - target.gel_bp)
    target.gel_bp += value
    if target.gel_bp >= GEL_FULL_BP:
        target.frozen = True
        target.attack_at = -1
    elif value:
        retime(b, target, t)
    return value


def thaw(b: Battle, fighter: Fighter, t: int, by: str) -> None:
    """A Fire hit melts all Gel: a frozen creature's attack cycle restarts from zero (from the shock's end
    if it is shocked); a slowed one gets its own pace back at once (its pending hit is re-timed)."""
    was_frozen = fighter.frozen
    fighter.gel_bp = 0
    fighter.frozen = False
    if was_frozen:
        if not fighter.is_def:
            schedule_attack(b, fighter, max(t, fighter.shock_until))
    else:
        retime(b, fighter, t)
    if b.entries is not None:
        b.entries.append({"t": t - b.round_start, "k": "thaw", "tgt": fighter.uid, "by": by})


def bleed_tick(b: Battle, fighter: Fighter, t: int) -> None:
    b.hits += 1
    dealt = fighter.bleed
    _tick(b, fighter, SAIGNEMENT, dealt, False, t)
    if fighter.alive and fighter.bleed:
        fighter.bleed_next = t + BLEED_PERIOD_MS
        if fighter.bleed_next < b.round_end:
            b.push(fighter.bleed_next, BLEED_TICK, fighter)


def burn_tick(b: Battle, fighter: Fighter, t: int) -> None:
    b.hits += 1
    dealt = fighter.burn
    crit = bool(fighter.burn_crit_bp) and b.rnd() * BP < fighter.burn_crit_bp
    if crit:
        dealt = dealt * fighter.burn_mult_bp // BP
    _tick(b, fighter, EMBRASEMENT, dealt, crit, t)
    if fighter.alive and fighter.burn:
        fighter.burn_next = t + BURN_PERIOD_MS
        if fighter.burn_next < b.round_end:
            b.push(fighter.burn_next, BURN_TICK, fighter)


def poison_tick(b: Battle, fighter: Fighter, t: int) -> None:
    b.hits += 1
    _tick(b, fighter, POISON, fighter.poison, False, t)


def _tick(b: Battle, fighter: Fighter, status: int, dealt: int, crit: bool, t: int) -> None:
    entry = None
    if b.entries is not None:
        entry = {
            "t": t - b.round_start,
            "k": "tick",
            "tgt": fighter.uid,
            "st": STATUSES[status],
            "dmg": dealt,
        }
        if crit:
            entry["crit"] = True
        b.entries.append(entry)
    absorbed = b.take(fighter, dealt, t, STATUSES[status])
    if entry is not None:
        entry["hp"] = max(0, fighter.hp)
        if absorbed:
            entry["shield"] = absorbed


def clear(fighter: Fighter) -> None:
    """Every marker gone (a revived creature comes back clean)."""
    fighter.poison = fighter.bleed = fighter.burn = 0
    fighter.bleed_next = fighter.burn_next = 0
    fighter.burn_crit_bp = fighter.burn_mult_bp = 0
    fighter.bris_bp = 0
    fighter.bris = 0.0
    fighter.gel_bp = 0
    fighter.frozen = False
    fighter.shock_until = 0
    fighter.confused = False


def fade(b: Battle, fighter: Fighter, t: int) -> None:
    """End of round (`t`, the next round's start): Embrasement may go out (70 %); Gel thaws fully after a
    freeze (the creature's cycle restarts from the next round's start, or from the shock's end, as every
    cycle does) or loses 10 points (the next round's cycle runs at the faster pace)."""
    if fighter.burn and b.rnd() * BP < BURN_OUT_BP:
        fighter.burn = 0
        fighter.burn_next = 0
        if b.entries is not None:
            b.entries.append({"t": t - b.round_start, "k": "out", "tgt": fighter.uid})
    if fighter.frozen:
        fighter.frozen = False
        fighter.gel_bp = 0
        if not fighter.is_def:
            schedule_attack(b, fighter, max(t, fighter.shock_until))
    elif fighter.gel_bp:
        fighter.gel_bp = max(0, fighter.gel_bp - GEL_DECAY_BP)
        retime(b, fighter, t)
