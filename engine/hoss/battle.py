"""The round simulator: five-second rounds of simultaneous fighting, run between two decision points.

A *segment* starts when every seat has answered the pause's decisions and runs rounds until the next
pause or the end. It draws all its chance from one `random.Random` made from the state's `RngState`
(advanced once per segment), so the fast path and the protocol path, which share this code and pause at
the same points, take exactly the same draws. Only `Random.random()` is used (the one method Python
promises to keep stable).

Every round restarts each creature's attack cycle (the rulebook: « une créature qui frappe toutes les
2 secondes attaque à 2 s puis à 4 s », in every round): its hits fall at k x interval from the round's
start (from a shock's end when a Choc runs across the round's end), and an event at exactly the round's
end (5 s) belongs to the next round, which restarts the cycle, so it never happens: a creature hits
ceil(5 s / interval) - 1 times per round, and Gel's slowest pace, 4.99 s, keeps a slowed creature at one
hit per round. Tick timers (Saignement, Embrasement), Choc and deflected hits in flight are not attack
cycles: they run on the continuous battle clock, across rounds. Within a round each fighter carries the
battle time of its next hit (`attack_at`) and of its current cycle's start (`cycle_start`), so a change of
pace re-times the pending hit; a pause between rounds takes no battle time. The events that fall in a
round sit in a heap ordered by battle time, rebuilt at each round start; events at the same millisecond
happen in a random order (a tie-break drawn when the event is queued), so neither seat is favoured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from heapq import heappop, heappush
from typing import Any

from engine.errors import IllegalAction
from engine.hoss import flow
from engine.hoss.actions import HossAction, answer_of, current_step, legal
from engine.hoss.damage import Deflection, attack, land
from engine.hoss.fighters import Fighter, Side, uid_of
from engine.hoss.log import round_summary
from engine.hoss.rules import BP, MAX_ROUNDS, ROUND_MS, START_HAND
from engine.hoss.state import CardSpec, DeckSpec
from engine.hoss.statuses import (
    ATTACK,
    BLEED_TICK,
    BURN_TICK,
    DEFLECTION,
    bleed_tick,
    burn_tick,
    clear,
    fade,
    poison_tick,
    retime,
    schedule_attack,
)
from engine.rng import RngState

Record = dict[str, Any]


def idle_rnd() -> float:
    raise RuntimeError("no chance outside a simulation segment")


class Battle:
    """The whole battle as mutable objects; `convert.py` turns it into a `HossState` and back."""

    __slots__ = (
        "cards",
        "deflections",
        "draws",
        "entries",
        "heap",
        "hits",
        "logging",
        "move_pauses",
        "over",
        "reason",
        "records",
        "rnd",
        "rng_state",
        "round",
        "round_end",
        "round_start",
        "scores",
        "seq",
        "sides",
        "winners",
    )

    def __init__(
        self,
        decks: Sequence[DeckSpec],
        cards: Mapping[str, CardSpec],
        rng_state: RngState,
        log: bool = False,
        move_pauses: bool = False,
        copy_of: Battle | None = None,
    ) -> None:
        if copy_of is not None:
            self._take(copy_of, log)
            return
        self.cards = dict(cards)
        self.sides = (Side(0, decks[0], self.cards), Side(1, decks[1], self.cards))
        self.sides[0].foe, self.sides[1].foe = self.sides[1], self.sides[0]
        self.rng_state = rng_state
        self.rnd: Callable[[], float] = idle_rnd
        self.logging = log
        self.move_pauses = move_pauses
        self.entries: list[dict[str, Any]] | None = None
        self.records: list[Record] = []
        self.draws: list[tuple[int, int, str]] = []  # (after round, seat, card uid)
        self.heap: list[tuple[int, float, int, int, Any]] = []
        self.seq = 0
        self.round = 0
        self.round_start = 0
        self.round_end = 0
        self.deflections: list[Deflection] = []
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        self.scores: tuple[int, ...] = ()
        self.hits = 0

    def _take(self, b: Battle, log: bool) -> None:
        """`convert.copy_battle`'s copy of `b`, as a constructor path (compiled, a class's `__new__` runs
        its `__init__`): the same immutable specs (decks, cards, steps), new sides, lists and creatures
        for everything that changes, no log records, draws or hit count."""
        self.cards = b.cards  # never changed during a battle
        self.sides = (
            Side(0, b.sides[0].deck, b.cards, b.sides[0]),
            Side(1, b.sides[1].deck, b.cards, b.sides[1]),
        )
        self.sides[0].foe, self.sides[1].foe = self.sides[1], self.sides[0]
        self.rng_state = b.rng_state
        self.rnd = idle_rnd
        self.logging = log
        self.move_pauses = b.move_pauses
        self.entries = None
        self.records = []
        self.draws = []
        self.heap = []
        self.seq = 0
        self.round = b.round
        self.round_start = self.round_end = 0
        self.deflections = [Deflection(d.time, d.seat, d.damage, d.source) for d in b.deflections]
        self.over = b.over
        self.winners = b.winners
        self.reason = b.reason
        self.scores = b.scores
        self.hits = 0
        for old, new in zip(b.sides, self.sides, strict=True):
            by_uid: dict[str, Fighter] = {}
            for f in old.fighters:
                g = by_uid[f.uid] = f.twin(new)
                new.fighters.append(g)
                if g.is_def:
                    new.defenders.append(g)
            for g in new.fighters:
                if g.protege is not None:
                    g.protege = by_uid[g.protege.uid]

    @classmethod
    def start(
        cls,
        decks: Sequence[DeckSpec],
        cards: Mapping[str, CardSpec],
        seed: int,
        *,
        log: bool = False,
        move_pauses: bool = False,
    ) -> Battle:
        """Shuffle each seat's Rang 1 cards, deal 3, and stop at the first pause (every seat has a card:
        with at most 2 Défenseur lines, any 3 cards hold an attacker)."""
        battle = cls(decks, cards, RngState.from_seed(seed, "hoss"), log, move_pauses)
        rng, battle.rng_state = battle.rng_state.advance()
        for side in battle.sides:
            uids = [uid_of(side.seat, i) for i in range(len(side.deck.lines))]
            shuffle(uids, rng.random)
            side.hand, side.pile = uids[:START_HAND], uids[START_HAND:]
            side.attacker_cards = sum(1 for uid in uids if not side.is_defender_card(uid))
        paused = flow.plan_pause(battle)
        assert paused, "a valid deck always has an attacker among its first 3 cards"
        return battle

    # --- decisions ----------------------------------------------------------------------------------

    def waiting(self) -> list[int]:
        """Seats that still owe a decision at this pause."""
        return [side.seat for side in self.sides if current_step(side.steps, side.answers) is not None]

    def legal_actions(self, seat: int) -> list[HossAction]:
        """What `seat` may do now (a fresh list; computed once per answer, as policies ask repeatedly)."""
        return list(self._legal(seat))

    def _legal(self, seat: int) -> list[HossAction]:
        """The kept list itself, for reading only."""
        side = self.sides[seat]
        cached = side.legal_cache
        if cached is None or cached[0] is not side.steps or cached[1] != len(side.answers):
            cached = side.legal_cache = (side.steps, len(side.answers), legal(side.steps, side.answers))
        return cached[2]

    def answer(self, seat: int, action: HossAction) -> None:
        if action not in self._legal(seat):
            raise IllegalAction("error.illegal_action")
        self.sides[seat].answers.append(answer_of(action))

    def resume(self) -> list[Record]:
        """Apply every seat's answers, then fight until the next pause or the end; returns the new rounds'
        log records (empty when logging is off)."""
        if self.over or self.waiting():
            raise IllegalAction("error.illegal_action")
        first = len(self.records)
        self.rnd, self.rng_state = self.rng_state.advance_draws()
        self.entries = [] if self.logging else None
        self.round_start = self.round_end = self.round * ROUND_MS
        for side in self.sides:
            for fighter in side.fighters:
                if not fighter.max_hp:  # restored from a state: stats not computed yet
                    fighter.refresh()
        flow.resolve(self)
        while True:
            self.run_round()
            if not self.over:
                self.end_of_round()
            self.close_round()
            if self.over:
                break
            if self.round >= MAX_ROUNDS:
                self.decide_on_points()
                break
            flow.draw(self)
            if flow.plan_pause(self):
                break
            self.entries = [] if self.logging else None
        self.rnd = idle_rnd
        self.entries = None
        return self.records[first:]

    # --- the round ----------------------------------------------------------------------------------

    def fighters(self) -> list[Fighter]:
        return [*self.sides[0].fighters, *self.sides[1].fighters]

    def push(self, when: int, kind: int, item: Any) -> None:
        heappush(self.heap, (when, self.rnd(), self.seq, kind, item))
        self.seq += 1

    def run_round(self) -> None:
        """Each fighter's round start (its Shield, its attack cycle, its damage ticks due this round), the
        deflected hits landing this round, then the round's events in time order. The loop is the hottest
        of the simulation: an attack, by far the most frequent event, is handled in it, and everything
        else goes through `fire`."""
        start = self.round * ROUND_MS
        end = start + ROUND_MS
        self.round_start, self.round_end = start, end
        heap: list[tuple[int, float, int, int, Any]] = []
        self.heap = heap
        self.seq = 0
        entries = self.entries
        for side in self.sides:
            shield = side.shield_bp
            for f in side.fighters:
                if shield:  # the Shield buff is refreshed (not stacked) at each round start
                    f.shield = f.max_hp * shield // BP
                    if entries is not None:
                        entries.append({"t": 0, "k": "shield", "tgt": f.uid, "amt": f.shield})
                if not f.is_def and not f.frozen:  # a new cycle, from the round's start or a shock's end
                    schedule_attack(self, f, start if start > f.shock_until else f.shock_until)
                if f.bleed and f.bleed_next < end:
                    self.push(f.bleed_next, BLEED_TICK, f)
                if f.burn and f.burn_next < end:
                    self.push(f.burn_next, BURN_TICK, f)
        for flight in self.deflections:
            if flight.time < end:
                self.push(flight.time, DEFLECTION, flight)
        while heap:
            t, _, _, kind, item = heappop(heap)
            if kind == ATTACK:
                if item.attack_at != t or not item.alive:  # stale: its fighter died or its hit moved
                    continue
                item.attack_at = -1
                attack(self, item, t)
                if item.attack_at == -1 and item.alive and not item.frozen:
                    schedule_attack(self, item, t)
            else:
                self.fire(kind, item, t)
            if self.over:
                return

    def fire(self, kind: int, item: Any, t: int) -> None:
        """One event off the heap other than an attack (`run_round`); a stale tick (its fighter dead, its
        time moved) is dropped."""
        if kind == BLEED_TICK:
            if item.alive and item.bleed_next == t:
                bleed_tick(self, item, t)
        elif kind == BURN_TICK:
            if item.alive and item.burn_next == t:
                burn_tick(self, item, t)
        else:
            land(self, item, t)

    def take(self, fighter: Fighter, amount: int, t: int, by: str) -> int:
        """Damage through the shield first; returns what the shield absorbed."""
        absorbed = 0
        if fighter.shield:
            if fighter.shield >= amount:
                fighter.shield -= amount
                return amount
            absorbed = fighter.shield
            amount -= absorbed
            fighter.shield = 0
        fighter.damage += amount
        if fighter.damage >= fighter.max_hp:
            self.kill(fighter, t, by)
        return absorbed

    def kill(self, fighter: Fighter, t: int, by: str) -> None:
        side = fighter.side
        if side.revive_bp and not fighter.revived:  # Revive: once per creature, back with a share of max PV
            fighter.revived = True
            stopped = fighter.attack_at < 0 or fighter.shock_until > t  # frozen or shocked
            clear(fighter)
            fighter.damage = fighter.max_hp - max(1, fighter.max_hp * side.revive_bp // BP)
            if self.entries is not None:
                self.entries.append(
                    {"t": t - self.round_start, "k": "revive", "tgt": fighter.uid, "hp": fighter.hp}
                )
            if not fighter.is_def:
                if stopped:  # its attacks were stopped: a new cycle starts at its revival
                    schedule_attack(self, fighter, t)
                else:  # its cycle runs on, at its own pace now that any Gel is gone
                    retime(self, fighter, t)
            return
        fighter.alive = False
        fighter.attack_at = -1
        side.fighters.remove(fighter)
        side.version += 1
        if fighter.is_def:
            side.defenders.remove(fighter)
            fighter.protege = None
        else:
            for defender in side.defenders:
                if defender.protege is fighter:
                    defender.protege = None
        if self.entries is not None:
            self.entries.append({"t": t - self.round_start, "k": "death", "tgt": fighter.uid, "by": by})
        if side.count_race(fighter.race, -1):
            for f in side.fighters:
                retime(self, f, t)
        # "plus de créature en jeu et plus aucune carte à jouer": a Défenseur in play is a creature in play,
        # and a Défenseur card cannot be played without an attacker, so only attacker cards count as cards.
        if not side.fighters and side.attacker_cards == 0:
            self.finish((side.foe.seat,), "hoss.outcome.elimination")

    def end_of_round(self) -> None:
        """In the rulebook's order: poison, the Soins buff, evolution, Défenseurs re-placed; then
        Embrasement may go out and Gel fades."""
        t = self.round_end
        for side in self.sides:
            for f in list(side.fighters):
                if f.alive and f.poison:
                    poison_tick(self, f, t)
                    if self.over:
                        return
        for side in self.sides:
            if side.soins_bp:
                for f in side.fighters:
                    healed = min(f.damage, f.max_hp * side.soins_bp // BP)
                    if healed > 0:
                        f.damage -= healed
                        if self.entries is not None:
                            self.entries.append(
                                {
                                    "t": ROUND_MS,
                                    "k": "heal",
                                    "src": "soins",
                                    "tgt": f.uid,
                                    "amt": healed,
                                    "hp": f.hp,
                                }
                            )
        for side in self.sides:
            for f in list(side.fighters):
                flow.try_evolve(self, f)
        for side in self.sides:
            flow.replace_defenders(self, side)
        for side in self.sides:
            for f in side.fighters:
                fade(self, f, t)

    def close_round(self) -> None:
        self.round += 1
        if self.entries is not None:
            self.records.append({"round": self.round, "events": self.entries, **round_summary(self)})

    # --- the end ------------------------------------------------------------------------------------

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.over = True
        self.winners = winners
        self.reason = reason
        self.scores = tuple(sum(max(0, f.hp) for f in side.fighters) // 100 for side in self.sides)

    def decide_on_points(self) -> None:
        """After 60 rounds: more creatures alive wins, then more total PV; otherwise a draw."""
        alive = [len(side.fighters) for side in self.sides]
        pv = [sum(f.hp for f in side.fighters) for side in self.sides]
        if alive[0] != alive[1]:
            self.finish((0 if alive[0] > alive[1] else 1,), "hoss.outcome.points_creatures")
        elif pv[0] != pv[1]:
            self.finish((0 if pv[0] > pv[1] else 1,), "hoss.outcome.points_pv")
        else:
            self.finish((), "hoss.outcome.points_draw")


def shuffle(items: list[str], rnd: Callable[[], float]) -> None:
    """Fisher-Yates on `Random.random()` only, whose sequence Python keeps stable across versions."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


__all__ = ["Battle", "Record"]
