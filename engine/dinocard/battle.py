"""The whole battle, computed in advance from two packs and a seed (rulebook: "Les affrontements sont
calculés à l'avance"): the log of every step, then watched step by step (`engine.py`).

The rulebook's sequence, exactly: the attacked player (`first`) plays first; each phase is the first
player's turn, the second player's turn, then the combat; each is one step of the log.

- Start of a turn: each egg of the player gets an éclosion marker; start-of-turn effects resolve
  (poison wounds, growth, objects).
- Draw: the first card of the pack is played. A card whose cost cannot be paid goes to the energy zone.
  A paid dinoz goes face down, as an egg, to the right-most free place of the rail (3 places), or to the
  graveyard when the rail is full; an incantation resolves then goes to the graveyard, or to the energy
  zone without a target; an object stays in play; an enchantment goes on a dinoz or an egg (or to the
  energy zone without a target).
- End of a turn: eggs with at least as many markers as their level (éclosion) hatch; end-of-turn effects
  resolve (regeneration).
- Combat: left to right, each hatched dinoz deals its force to the dinoz facing it, or to the player when
  it faces nothing or only an egg; then dinoz with damage >= endurance die and the survivors shift left.
- A player at 0 life loses at the end of the step; both at 0 is a draw. Once both packs are empty, 10
  more phases, then more life wins; equal life plays a new round (at most `MAX_ROUNDS`, then a draw).

Energies are never spent: a cost is a threshold on the energy zone (rulebook: "au moins autant de
cartes"); only Arc removes one. Every decision the rulebook leaves open: docs/dinocard/rules-notes.md.
Plain mutable objects with `__slots__` inside, one immutable log out: a 100-card battle takes about a
millisecond (benchmarks/dinocard_battle.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dinocard import codes as c
from engine.dinocard.table import (
    DINOZ,
    FIRST_STRIKE,
    FLYING,
    LIFELINK,
    OBJECT,
    RANGED,
    SPELL,
    TRAMPLE,
    Stats,
)
from engine.rng import derive

COUNTDOWN = 10  # phases once both packs are empty
MAX_ROUNDS = 3  # rounds played while the life stays equal; then the battle is a draw
RAIL = 3

Event = tuple[int, ...]
Step = tuple[Event, ...]


class Unit:
    """A dinoz on the rail: an egg until `hatched`. Force and endurance include its enchantments, not the
    objects' auras (read through the side)."""

    __slots__ = (
        "armor",
        "card",
        "damage",
        "enchants",
        "endurance",
        "flags",
        "force",
        "growth",
        "hatched",
        "inst",
        "markers",
        "poison",
        "poisoned",
        "regen",
    )

    def __init__(self, inst: int, card: Stats) -> None:
        self.inst = inst
        self.card = card
        self.hatched = False
        self.markers = 0
        self.damage = 0
        self.force = card.force
        self.endurance = card.endurance
        self.flags = card.flags
        self.poison = card.poison
        self.armor = card.armor
        self.regen = card.regen
        self.growth = card.growth
        self.poisoned = 0
        self.enchants = 0

    def ref(self) -> int:
        """How events name it: its instance once hatched, -1 while its card is hidden in an egg."""
        return self.inst if self.hatched else -1


class Side:
    __slots__ = (
        "aura_end",
        "aura_force",
        "cards",
        "energy",
        "energy_total",
        "grave",
        "kept",
        "life",
        "max_life",
        "objects",
        "pack",
        "pile",
        "pos",
        "rail",
        "seat",
    )

    def __init__(self, seat: int, cards: tuple[Stats, ...], pack: int, kept: int, life: int) -> None:
        self.seat = seat
        self.cards = cards  # by instance index: the pack's cards, then the bonus cards
        self.pack = pack  # how many of `cards` are the pack's (the rest are bonus cards)
        self.kept = kept  # « Stratégie »: the pack's first cards kept on top, in order
        self.max_life = life
        self.reset([])

    def reset(self, pile: list[int]) -> None:
        self.life = self.max_life
        self.pile = pile
        self.pos = 0
        self.energy = [0, 0, 0, 0, 0]
        self.energy_total = 0
        self.grave = 0
        self.rail: list[Unit | None] = [None, None, None]
        self.objects: list[int] = []
        self.aura_force = 0
        self.aura_end = 0

    def left(self) -> int:
        return len(self.pile) - self.pos


@dataclass(frozen=True, slots=True)
class Result:
    log: tuple[Step, ...]
    opening: Event  # the board before the first step
    winner: int  # -1: a draw
    reason: int  # an index of codes.END_REASONS
    life: tuple[int, int]
    rounds: int


class Battle:
    def __init__(
        self,
        cards: Sequence[tuple[Stats, ...]],
        packs: Sequence[int],
        kept: Sequence[int],
        life: Sequence[int],
        first: int,
        seed: int,
    ) -> None:
        self.sides = (
            Side(0, cards[0], packs[0], kept[0], life[0]),
            Side(1, cards[1], packs[1], kept[1], life[1]),
        )
        self.first = first
        self.seed = seed
        self.steps: list[Step] = []

    # --- the whole battle -------------------------------------------------------------------------------

    def run(self) -> Result:
        opening: Event = ()
        for rnd in range(1, MAX_ROUNDS + 1):
            self._deal(rnd)
            if rnd == 1:
                opening = self._board()
            ended = self._round(rnd)
            if ended is None and rnd == MAX_ROUNDS:
                ended = self._end(-1, c.TIE)
            if ended is not None:
                winner, reason = ended
                return self._result(opening, winner, reason, rnd)
        raise AssertionError("unreachable: the last round always ends")  # pragma: no cover

    def _result(self, opening: Event, winner: int, reason: int, rnd: int) -> Result:
        a, b = self.sides
        return Result(tuple(self.steps), opening, winner, reason, (a.life, b.life), rnd)

    def _deal(self, rnd: int) -> None:
        """Shuffle each pack for the round: the kept cards on top in order, the rest (bonus cards too)
        below in a random order from the round's own stream."""
        for side in self.sides:
            rest = list(range(side.kept, len(side.cards)))
            random.Random(derive(self.seed, "dinocard", "deal", rnd, side.seat)).shuffle(rest)
            side.reset([*range(side.kept), *rest])

    def _round(self, rnd: int) -> tuple[int, int] | None:
        """Phases until someone is at 0 life or the countdown ends; None: equal life, play a new round."""
        first, second = self.sides[self.first], self.sides[1 - self.first]
        countdown = 0
        phase = 0
        while True:
            phase += 1
            head: list[Event] = [(c.ROUND, rnd)] if rnd > 1 and phase == 1 else []
            if not countdown and not first.left() and not second.left():
                countdown = COUNTDOWN
            if countdown:
                head.append((c.COUNTDOWN, countdown))
            for side, extra in ((first, head), (second, [])):
                events = [(c.TURN, side.seat, phase), *extra]
                self._turn(side, self.sides[1 - side.seat], events)
                ended = self._close(events)
                if ended is not None:
                    return ended
            events = [(c.COMBAT, phase)]
            self._combat(events)
            ended = self._close(events)
            if ended is not None:
                return ended
            if countdown:
                countdown -= 1
                if not countdown:
                    a, b = self.sides[0].life, self.sides[1].life
                    if a != b:
                        return self._end(0 if a > b else 1, c.LIFE)
                    return None

    def _close(self, events: list[Event]) -> tuple[int, int] | None:
        """End a step: its board, and the end when a player is at 0 life (both: a draw)."""
        events.append(self._board())
        a, b = self.sides[0].life, self.sides[1].life
        ended = None
        if a <= 0 or b <= 0:
            ended = (-1, c.DOUBLE_KO) if a <= 0 and b <= 0 else (0 if b <= 0 else 1, c.KO)
            events.append((c.END, ended[0], ended[1], a, b))
        self.steps.append(tuple(events))
        return ended

    def _end(self, winner: int, reason: int) -> tuple[int, int]:
        a, b = self.sides[0].life, self.sides[1].life
        last = self.steps[-1]
        self.steps[-1] = (*last, (c.END, winner, reason, a, b))
        return winner, reason

    def _board(self) -> Event:
        out = [c.BOARD]
        a, b = self.sides
        out += (a.life, b.life, a.left(), b.left(), a.grave, b.grave, *a.energy, *b.energy)
        for side in self.sides:
            for u in side.rail:
                if u is None:
                    out += (-1, 0, 0, 0, 0, 0, 0)
                else:
                    force, end = u.force + side.aura_force, u.endurance + side.aura_end
                    out += (u.inst, 1 if u.hatched else 0, force, end, u.damage, u.markers, u.poisoned)
        for side in self.sides:
            out.append(len(side.objects))
            out += side.objects
        return tuple(out)

    # --- a player's turn --------------------------------------------------------------------------------

    def _turn(self, side: Side, opp: Side, events: list[Event]) -> None:
        self._start(side, opp, events)
        if side.left():
            self._play(side, opp, events)
        self._finish(side, opp, events)

    def _start(self, side: Side, opp: Side, events: list[Event]) -> None:
        """Éclosion markers on every egg, then the start-of-turn effects, then what they killed."""
        seat = side.seat
        eggs = 0
        bonus = 1 + sum(side.cards[i].value for i in side.objects if side.cards[i].effect == "incubator")
        for u in side.rail:
            if u is not None and not u.hatched:
                u.markers += bonus
                eggs += 1
        if eggs:
            events.append((c.MARKERS, seat, eggs, bonus))
        for slot, u in enumerate(side.rail):
            if u is None:
                continue
            if u.poisoned:
                u.damage += u.poisoned
                events.append((c.POISON, seat, slot, u.ref(), u.poisoned))
            if u.growth and u.hatched:
                u.force += u.growth
                events.append((c.GROWTH, seat, slot, u.inst, u.growth))
        for inst in side.objects:
            card = side.cards[inst]
            if card.effect == "start_heal":
                self._heal(side, card.value, inst, events)
            elif card.effect == "start_damage":
                self._hit_player(opp, card.value, seat, inst, events)
        self._bury(side, events)

    def _finish(self, side: Side, opp: Side, events: list[Event]) -> None:
        """Eggs with enough markers hatch (with their hatching effects), then regeneration."""
        seat = side.seat
        for slot, u in enumerate(side.rail):
            if u is not None and not u.hatched and u.markers >= u.card.eclosion:
                u.hatched = True
                events.append((c.HATCH, seat, slot, u.inst))
                if u.card.hatch_damage:
                    self._hit_player(opp, u.card.hatch_damage, seat, u.inst, events)
                if u.card.hatch_heal:
                    self._heal(side, u.card.hatch_heal, u.inst, events)
        for slot, u in enumerate(side.rail):
            if u is not None and u.hatched and u.regen and u.damage:
                healed = min(u.regen, u.damage)
                u.damage -= healed
                events.append((c.REGEN, seat, slot, u.inst, healed))

    def _play(self, side: Side, opp: Side, events: list[Event]) -> None:
        """Play the first card of the pack (the rulebook's draw)."""
        inst = side.pile[side.pos]
        side.pos += 1
        card = side.cards[inst]
        if side.energy[card.element] < card.colored or side.energy_total < card.need:
            self._to_energy(side, inst, c.UNPAID, events)
            return
        kind = card.type
        if kind == DINOZ:
            rail = side.rail
            slot = 2 if rail[2] is None else 1 if rail[1] is None else 0 if rail[0] is None else -1
            if slot < 0:
                side.grave += 1
                events.append((c.GRAVEYARD, side.seat, inst, c.RAIL_FULL))
                return
            rail[slot] = Unit(inst, card)
            events.append((c.EGG, side.seat, slot, inst))
        elif kind == SPELL:
            if not self._cast(side, opp, inst, card, events):
                self._to_energy(side, inst, c.NO_TARGET, events)
                return
            side.grave += 1
            events.append((c.GRAVEYARD, side.seat, inst, c.RESOLVED))
        elif kind == OBJECT:
            side.objects.append(inst)
            if card.effect == "aura_force":
                side.aura_force += card.value
            elif card.effect == "aura_endurance":
                side.aura_end += card.value
            events.append((c.OBJECT, side.seat, inst))
        elif not self._enchant(side, opp, inst, card, events):
            self._to_energy(side, inst, c.NO_TARGET, events)
            return
        if card.arc and side.energy[card.element]:
            side.energy[card.element] -= 1
            side.energy_total -= 1
            side.grave += 1
            events.append((c.ARC, side.seat, card.element))

    def _to_energy(self, side: Side, inst: int, why: int, events: list[Event]) -> None:
        side.energy[side.cards[inst].element] += 1
        side.energy_total += 1
        events.append((c.ENERGY, side.seat, inst, why))

    # --- incantations and enchantments ------------------------------------------------------------------

    def _cast(self, side: Side, opp: Side, inst: int, card: Stats, events: list[Event]) -> bool:
        """Resolve an incantation; False (and nothing happens) when it has no target."""
        effect, value, seat = card.effect, card.value, side.seat
        if effect == "damage_player":
            events.append((c.CAST, seat, inst))
            self._hit_player(opp, value, seat, inst, events)
        elif effect == "damage_dinoz":
            slot = strongest(opp)
            if slot < 0:
                return False
            events.append((c.CAST, seat, inst))
            u = opp.rail[slot]
            assert u is not None
            u.damage += value
            events.append((c.HIT_DINOZ, opp.seat, slot, u.inst, value, seat, inst))
            self._bury(opp, events)
        elif effect == "heal_player":
            if side.life >= side.max_life:
                return False
            events.append((c.CAST, seat, inst))
            self._heal(side, value, inst, events)
        elif effect == "heal_dinoz":
            slot = most_damaged(side)
            if slot < 0:
                return False
            events.append((c.CAST, seat, inst))
            u = side.rail[slot]
            assert u is not None
            healed = min(value, u.damage)
            u.damage -= healed
            u.poisoned = 0
            events.append((c.HEAL_DINOZ, seat, slot, u.inst, healed))
        elif effect in ("draw", "energy"):
            if not side.left():
                return False
            events.append((c.CAST, seat, inst))
            self._feed(side, opp, effect == "draw", value, events)
        else:  # destroy_object
            if not opp.objects:
                return False
            events.append((c.CAST, seat, inst))
            self._destroy_object(opp, events)
        return True

    def _feed(self, side: Side, opp: Side, draw: bool, count: int, events: list[Event]) -> None:
        """The next `count` cards of the pack: played at once (draw) or put in the energy zone."""
        for _ in range(count):
            if not side.left():
                break
            if draw:
                self._play(side, opp, events)
            else:
                side.pos += 1
                self._to_energy(side, side.pile[side.pos - 1], c.FED, events)

    def _destroy_object(self, opp: Side, events: list[Event]) -> None:
        """The opponent's oldest object to its graveyard; losing an aura may kill a dinoz."""
        gone = opp.objects.pop(0)
        target = opp.cards[gone]
        if target.effect == "aura_force":
            opp.aura_force -= target.value
        elif target.effect == "aura_endurance":
            opp.aura_end -= target.value
        opp.grave += 1
        events.append((c.OBJECT_DESTROYED, opp.seat, gone))
        self._bury(opp, events)

    def _enchant(self, side: Side, opp: Side, inst: int, card: Stats, events: list[Event]) -> bool:
        """Put an enchantment on a dinoz or an egg: a curse on the opponent's strongest dinoz (else its
        left-most egg), a blessing on its owner's left-most dinoz (else left-most egg)."""
        target = opp if card.curse else side
        slot = strongest(target) if card.curse else leftmost_hatched(target)
        if slot < 0:
            slot = leftmost_egg(target)
            if slot < 0:
                return False
        u = target.rail[slot]
        assert u is not None
        u.force = max(0, u.force + card.force - card.weaken)
        u.endurance += card.endurance
        u.flags |= card.flags
        u.poison = max(u.poison, card.poison)
        u.armor += card.armor
        u.regen += card.regen
        u.growth += card.growth
        u.poisoned = max(u.poisoned, card.venom)
        u.enchants += 1
        events.append((c.ENCHANT, side.seat, inst, target.seat, slot))
        return True

    # --- life and deaths --------------------------------------------------------------------------------

    def _hit_player(self, target: Side, amount: int, seat: int, inst: int, events: list[Event]) -> None:
        target.life = max(0, target.life - amount)
        events.append((c.HIT_PLAYER, target.seat, amount, seat, inst))

    def _heal(self, side: Side, amount: int, inst: int, events: list[Event]) -> None:
        """Life gained never goes above the starting life."""
        gained = min(amount, side.max_life - side.life)
        if gained > 0:
            side.life += gained
            events.append((c.HEAL_PLAYER, side.seat, gained, inst))

    def _bury(self, side: Side, events: list[Event], shift: bool = True) -> bool:
        """Dinoz (and eggs) with damage >= endurance go to the graveyard with their enchantments; the
        survivors shift left so that no place is left empty between them (unless `shift` is False)."""
        rail = side.rail
        died = False
        for slot in range(RAIL):
            u = rail[slot]
            if u is not None and u.damage >= u.endurance + side.aura_end:
                rail[slot] = None
                side.grave += 1 + u.enchants
                events.append((c.DIED, side.seat, slot, u.inst))
                died = True
        if died and shift:
            self._shift(side, events)
        return died

    def _shift(self, side: Side, events: list[Event]) -> None:
        packed: list[Unit | None] = [u for u in side.rail if u is not None]
        packed += [None] * (RAIL - len(packed))
        if packed != side.rail:
            side.rail = packed
            events.append((c.SHIFT, side.seat))

    # --- combat -----------------------------------------------------------------------------------------

    def _combat(self, events: list[Event]) -> None:
        """First strikers first (what they kill dies at once and does not strike), then every other
        hatched dinoz, slot by slot from the left, the first player's before the second's; then deaths."""
        order = (self.sides[self.first], self.sides[1 - self.first])
        died = [False, False]
        if any(u is not None and u.hatched and u.flags & FIRST_STRIKE for s in order for u in s.rail):
            for slot in range(RAIL):
                for side in order:
                    u = side.rail[slot]
                    if u is not None and u.hatched and u.flags & FIRST_STRIKE:
                        self._strike(side, slot, u, events)
            for side in order:
                died[side.seat] = self._bury(side, events, shift=False)
        for slot in range(RAIL):
            for side in order:
                u = side.rail[slot]
                if u is not None and u.hatched and not u.flags & FIRST_STRIKE:
                    self._strike(side, slot, u, events)
        for side in order:
            if self._bury(side, events, shift=False) or died[side.seat]:
                self._shift(side, events)

    def _strike(self, side: Side, slot: int, u: Unit, events: list[Event]) -> None:
        force = u.force + side.aura_force
        if force <= 0:
            return
        opp = self.sides[1 - side.seat]
        if u.flags & FLYING:
            tslot = -1
        elif u.flags & RANGED:
            tslot = weakest(opp)
        else:
            t = opp.rail[slot]
            tslot = slot if t is not None and t.hatched else -1
        if tslot < 0:
            opp.life = max(0, opp.life - force)
            events.append((c.ATTACK, side.seat, slot, u.inst, tslot, force))
            dealt = force
        else:
            target = opp.rail[tslot]
            assert target is not None
            left = target.endurance + opp.aura_end - target.damage
            dealt = max(0, force - target.armor)
            target.damage += dealt
            events.append((c.ATTACK, side.seat, slot, u.inst, tslot, dealt))
            if dealt and u.poison > target.poisoned:
                target.poisoned = u.poison
                events.append((c.POISONED, opp.seat, tslot, target.inst, u.poison))
            if u.flags & TRAMPLE and dealt > max(left, 0):
                self._hit_player(opp, dealt - max(left, 0), side.seat, u.inst, events)
        if u.flags & LIFELINK and dealt:
            self._heal(side, dealt, u.inst, events)


def strongest(side: Side) -> int:
    """The slot of the side's hatched dinoz of highest force (the left-most of equals), -1 if none."""
    best, found = -1, -1
    for slot, u in enumerate(side.rail):
        if u is not None and u.hatched and u.force > best:
            best, found = u.force, slot
    return found


def weakest(side: Side) -> int:
    """The slot of the hatched dinoz with the least endurance left (left-most of equals), -1 if none."""
    best, found = 1 << 30, -1
    for slot, u in enumerate(side.rail):
        if u is not None and u.hatched and u.endurance + side.aura_end - u.damage < best:
            best, found = u.endurance + side.aura_end - u.damage, slot
    return found


def most_damaged(side: Side) -> int:
    """The slot of the side's hatched dinoz with the most damage or poison (left-most), -1 if none."""
    best, found = 0, -1
    for slot, u in enumerate(side.rail):
        if u is not None and u.hatched and u.damage + u.poisoned > best:
            best, found = u.damage + u.poisoned, slot
    return found


def leftmost_hatched(side: Side) -> int:
    return next((i for i, u in enumerate(side.rail) if u is not None and u.hatched), -1)


def leftmost_egg(side: Side) -> int:
    return next((i for i, u in enumerate(side.rail) if u is not None and not u.hatched), -1)
