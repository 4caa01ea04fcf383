"""One attack, in the rulebook's order.

0. Aim: a confused attacker turns on a random ally 15 % of the time; otherwise `targeting` picks an
   enemy, and a Défenseur standing on it may intercept the hit (`defender.interceptor`).
1. A Squelette is missed entirely by 20 % of Lancier and Archer hits.
2. Dodge: the class table plus the card's dodge bonus, raised by the bonus; a shocked target cannot dodge.
3. Base damage: the attacker's ATK (raised by its bonus).
4. Additive bonuses and penalties: race fear +40 %, +15 % per feared element, the class table, -15 % per
   race or element resistance, Squelette +10 % from Guerriers and Cavaliers, the target's armour break,
   the Dégât buff.
5. Critical hit: x(1.5 + the card's crit-damage bonus + the Dégât Critique buff).
6. Défenseur: its damage reduction, then its block (80 % flat against an arrow aimed at it, halved by a
   Lancier, lowered by Gel by the same %, none while shocked). A Sylvestre Défenseur may deflect a hit it
   blocks; a creature with a deflect chance that is not a Défenseur (the Sylvestre Guerrier) may deflect a
   hit that touches it instead of taking it. A deflected hit lands 0.4 s later on a random enemy for the
   damage it carried (raw: no dodge, interception, block or status).
Then the hit lands (at least 1 PV: a resistance never cancels damage), its statuses are rolled, a Fire
hit thaws the target, and a healer may heal the most wounded ally of its side 10 % of its missing PV.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.hoss.defender import interceptor
from engine.hoss.fighters import Fighter, Side
from engine.hoss.rules import (
    ARCHER,
    ARROW_BLOCK_BP,
    BP,
    CONFUSION,
    CONFUSION_BP,
    DEFLECT_DELAY_MS,
    HEAL_MISSING_PCT,
    LANCIER,
    MIN_HIT,
    SQUELETTE,
    SQUELETTE_AVOID_BP,
    STATUSES,
)
from engine.hoss.statuses import DEFLECTION, apply_status, thaw
from engine.hoss.targeting import pick_ally, pick_target

if TYPE_CHECKING:
    from engine.hoss.battle import Battle

ARROW_BLOCK = ARROW_BLOCK_BP / BP
SQUELETTE_AVOID = SQUELETTE_AVOID_BP / BP
CONFUSED_HIT = CONFUSION_BP / BP
N_STATUSES = len(STATUSES)


class Deflection:
    """A deflected hit in flight toward side `seat`."""

    __slots__ = ("damage", "seat", "source", "time")

    def __init__(self, time: int, seat: int, damage: int, source: str) -> None:
        self.time = time
        self.seat = seat
        self.damage = damage
        self.source = source


def attack(b: Battle, a: Fighter, t: int) -> None:
    """`a` strikes at battle time `t`."""
    rnd = b.rnd
    confused = False
    target: Fighter | None = None
    if a.confused and rnd() < CONFUSED_HIT:
        target = pick_ally(a, rnd)
        confused = target is not None
    if target is None:
        target = pick_target(a, rnd)
        if target is None:
            return
    b.hits += 1
    aimed = target
    if not confused and not target.is_def and target.side.defenders:
        guard = interceptor(a, target, rnd)
        if guard is not None:
            target = guard
    strike(b, a, aimed, target, t, confused)


def strike(b: Battle, a: Fighter, aimed: Fighter, tg: Fighter, t: int, confused: bool = False) -> None:
    """Steps 1-6 against the creature that actually takes the hit (`aimed` unless intercepted)."""
    rnd = b.rnd
    entry = None if b.entries is None else _hit_entry(b, a, aimed, tg, t, confused)
    shocked = tg.shock_until > t
    acls = a.cls
    # 1. a Squelette avoids the hit; 2. the target dodges it (not while shocked)
    if tg.race == SQUELETTE and acls in (LANCIER, ARCHER) and rnd() < SQUELETTE_AVOID:
        _missed(entry, "avoid")
        return
    if not shocked and tg.dodge[acls] and rnd() < tg.dodge[acls]:
        _missed(entry, "dodge")
        return
    # 3-4. base damage and additive modifiers
    dmg = a.atk * (1.0 + a.mod_vs[tg.key] + tg.bris)
    # 5. critical hit
    crit = rnd() < a.crit
    if crit:
        dmg *= a.crit_mult
        if entry is not None:
            entry["crit"] = True
    # 6. Défenseur: reduction, then block
    if tg.is_def:
        dmg *= 1.0 - tg.reduction
        if not shocked and _blocked(b, a, aimed, tg, dmg, t, entry):
            return
    amount = max(MIN_HIT, int(dmg + 0.5))
    if tg.deflect and not tg.is_def and rnd() < tg.deflect:
        if entry is not None:
            entry.update(res="deflect", dmg=0)
        deflect(b, tg, amount, t, entry)
        return
    if entry is not None:
        entry["res"] = "hit"
        entry["dmg"] = amount
    absorbed = b.take(tg, amount, t, a.uid)
    if entry is not None:
        entry["hp"] = max(0, tg.hp)
        if absorbed:
            entry["shield"] = absorbed
    if tg.alive:
        _after_hit(b, a, tg, amount, t)
    if a.heal and rnd() < a.heal:
        heal_ally(b, a, t)


def _hit_entry(b: Battle, a: Fighter, aimed: Fighter, tg: Fighter, t: int, confused: bool) -> dict[str, Any]:
    """The hit's log entry, already in the round's log (logging on); the steps fill it in."""
    assert b.entries is not None
    entry: dict[str, Any] = {"t": t - b.round_start, "k": "hit", "src": a.uid, "tgt": tg.uid}
    if aimed is not tg:
        entry["aimed"] = aimed.uid
    if confused:
        entry["confused"] = True
    b.entries.append(entry)
    return entry


def _missed(entry: dict[str, Any] | None, result: str) -> None:
    """A hit that steps 1-2 stopped, in the log (when it is on)."""
    if entry is not None:
        entry["res"] = result


def _blocked(
    b: Battle, a: Fighter, aimed: Fighter, tg: Fighter, dmg: float, t: int, entry: dict[str, Any] | None
) -> bool:
    """Step 6's block by a Défenseur that is not shocked; a blocked hit may be deflected, and a healing
    Défenseur may heal on a block."""
    rnd = b.rnd
    block = ARROW_BLOCK if a.cls == ARCHER and aimed is tg else tg.block * (BP - tg.gel_bp) / BP
    if a.cls == LANCIER:
        block *= 0.5
    if not (block and rnd() < block):
        return False
    amount = max(MIN_HIT, int(dmg + 0.5))
    if entry is not None:
        entry["res"] = "block"
        entry["dmg"] = 0
    if tg.deflect and rnd() < tg.deflect:
        deflect(b, tg, amount, t, entry)
    if tg.heal and rnd() < tg.heal:
        heal_ally(b, tg, t)
    return True


def _after_hit(b: Battle, a: Fighter, tg: Fighter, amount: int, t: int) -> None:
    """A hit its target survived: a Fire hit thaws it, then the attacker's statuses and its side's
    markers are rolled."""
    rnd = b.rnd
    if a.fire and tg.gel_bp:
        thaw(b, tg, t, a.uid)
    side = a.side
    for status, chance in a.statuses:
        if rnd() < chance:
            stacks = 2 if side.double and rnd() < side.double else 1
            apply_status(b, a, tg, status, amount, stacks, t)
    if side.random_marker and rnd() < side.random_marker:
        apply_status(b, a, tg, int(rnd() * N_STATUSES), amount, 1, t)
    if side.confuse and rnd() < side.confuse:
        apply_status(b, a, tg, CONFUSION, amount, 1, t)


def deflect(b: Battle, source: Fighter, amount: int, t: int, entry: dict[str, Any] | None) -> None:
    """Send a hit back toward `source`'s enemies; it lands 0.4 s later on whoever is there then."""
    flight = Deflection(t + DEFLECT_DELAY_MS, source.foe.seat, amount, source.uid)
    b.deflections.append(flight)
    if flight.time < b.round_end:
        b.push(flight.time, DEFLECTION, flight)
    if entry is not None:
        entry["deflected"] = True


def land(b: Battle, flight: Deflection, t: int) -> None:
    b.deflections.remove(flight)
    side: Side = b.sides[flight.seat]
    if not side.fighters:
        return
    b.hits += 1
    target = side.fighters[int(b.rnd() * len(side.fighters))]
    entry = None
    if b.entries is not None:
        entry = {"t": t - b.round_start, "k": "deflected", "src": flight.source, "tgt": target.uid}
        entry["dmg"] = flight.damage
        b.entries.append(entry)
    absorbed = b.take(target, flight.damage, t, flight.source)
    if entry is not None:
        entry["hp"] = max(0, target.hp)
        if absorbed:
            entry["shield"] = absorbed


def heal_ally(b: Battle, healer: Fighter, t: int) -> None:
    """Heal the most wounded creature of the healer's side (itself included; the first in play order on
    a tie) by 10 % of its missing PV."""
    best: Fighter | None = None
    missing = 0
    for fighter in healer.side.fighters:
        if fighter.damage > missing:
            best, missing = fighter, fighter.damage
    if best is None:
        return
    amount = missing * HEAL_MISSING_PCT // 100
    if amount <= 0:
        return
    best.damage -= amount
    if b.entries is not None:
        b.entries.append(
            {
                "t": t - b.round_start,
                "k": "heal",
                "src": healer.uid,
                "tgt": best.uid,
                "amt": amount,
                "hp": best.hp,
            }
        )
