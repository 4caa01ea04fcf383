"""Between rounds: draws, evolution, Défenseur placement, and the pauses that ask players to decide.

- Hand: 3 Rang 1 cards at the start; from round 2 on, each round begins with one draw (Rang 2 and 3
  are never drawn: they come by evolution). At most one card is played per round; passing is allowed.
- A pause happens only when some seat owes a decision: a playable card in hand, a Rang 2 path to
  choose, or a Défenseur to place among several attackers. During a pause, every seat that has a
  Défenseur it could move may also move it, at any of its steps (each at most once per pause); a
  possible move alone pauses the battle only with the `move_pauses` table option.
- Answers stay secret until every seat is done, then apply in seat order, each seat's in the order it
  gave them: a move therefore holds from the first hit of the next round. A card played enters at the
  start of the next round, where every attacker's cycle restarts.
- Evolution (end of round): chance = the copy's bonus, only if the line owns a next rank. One owned
  path evolves at once; two owned Rang 2 paths let the player choose during the pause; Rang 2 → Maître
  is automatic. The creature keeps the damage it has taken and its statuses.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from engine.hoss.defender import candidates
from engine.hoss.fighters import Fighter, Side
from engine.hoss.rules import ROUND_MS
from engine.hoss.state import CopySpec, Step
from engine.hoss.statuses import retime, schedule_attack

if TYPE_CHECKING:
    from engine.hoss.battle import Battle


def _log(b: Battle, entry: dict[str, object]) -> None:
    if b.entries is not None:
        b.entries.append(entry)


def draw(b: Battle) -> None:
    for side in b.sides:
        if side.pile:
            uid = side.pile.pop(0)
            side.hand.append(uid)
            b.draws.append((b.round, side.seat, uid))


def plan_pause(b: Battle) -> bool:
    """Set each seat's steps; True when the battle must wait for decisions.

    Required decisions (paths, placements among several attackers, a playable card) pause the battle.
    A possible Défenseur move pauses it only with the `move_pauses` table option; otherwise moves are
    offered during the pauses that happen anyway.
    """
    required = False
    planned: list[tuple[list[Step], tuple[tuple[str, str | None], ...], tuple[tuple[str, str], ...]]] = []
    for side in b.sides:
        steps: list[Step] = []
        attackers = [f.uid for f in candidates(side)]
        for f in side.fighters:
            if f.path_options:
                steps.append(_choice("path", f.uid, f.path_options))
        if len(attackers) >= 2:
            for d in side.defenders:
                if d.protege is None:
                    steps.append(_choice("place", d.uid, tuple(attackers)))
        options = plays(side, attackers)
        moves = tuple(
            (d.uid, uid)
            for d in side.defenders
            if d.protege is not None
            for uid in attackers
            if uid != d.protege.uid
        )
        if steps or options or (b.move_pauses and moves):
            required = True
        planned.append((steps, options, moves))
    for side, (steps, options, moves) in zip(b.sides, planned, strict=True):
        if required and (options or moves):
            steps.append(_orders(options, moves))
        side.steps = steps if required else []
        side.answers = []
    return required


# A pause builds its steps again from the same few values (the hand, the attackers in play): validating a
# step costs several microseconds, a lookup of the one already made a fraction of that. Steps are frozen.
@lru_cache(maxsize=4096)
def _choice(kind: Literal["path", "place"], subject: str, options: tuple[str, ...]) -> Step:
    return Step(kind=kind, subject=subject, options=options)


@lru_cache(maxsize=4096)
def _orders(plays: tuple[tuple[str, str | None], ...], moves: tuple[tuple[str, str], ...]) -> Step:
    return Step(kind="orders", plays=plays, moves=moves)


def plays(side: Side, attackers: list[str]) -> tuple[tuple[str, str | None], ...]:
    """Playable hand cards: an attacker anytime; a Défenseur onto one of the `attackers` in play."""
    options: list[tuple[str, str | None]] = []
    defenders = side.defender_cards
    for uid in side.hand:
        if uid in defenders:
            options += [(uid, protege) for protege in attackers]
        else:
            options.append((uid, None))
    return tuple(options)


def resolve(b: Battle) -> None:
    """Apply the answers of every seat, in seat order, then place any waiting Défenseur."""
    for side in b.sides:
        by_uid = {f.uid: f for f in side.fighters}
        for kind, first, second in side.answers:  # `actions.answer_of`'s compact form, read as it is
            if kind == "path":
                fighter = by_uid[first]
                copy = next(c for c in fighter.line.r2 if c.card == second)
                fighter.path_options = ()
                evolve(b, fighter, copy, b.round_start)
            elif kind == "place" or kind == "move":
                defender = by_uid[first]
                defender.protege = by_uid[second]
                _log(b, {"t": 0, "k": kind, "tgt": defender.uid, "protege": second})
            elif kind == "play":
                put_in_play(b, side, first, second or None)
        side.steps = []
        side.answers = []
    for side in b.sides:
        for d in side.defenders:
            if d.protege is None:
                attackers = candidates(side)
                if attackers:
                    d.protege = attackers[0]
                    _log(b, {"t": 0, "k": "place", "tgt": d.uid, "protege": attackers[0].uid})


def put_in_play(b: Battle, side: Side, uid: str, protege: str | None) -> Fighter:
    """The card enters at the start of the next round; an attacker's first hit comes one interval later."""
    start = b.round * ROUND_MS
    line = side.line(uid)
    fighter = Fighter(uid, side, b.cards[line.r1.card], line.r1)
    side.hand.remove(uid)
    side.fighters.append(fighter)
    side.version += 1
    if fighter.is_def:
        side.defenders.append(fighter)
        fighter.protege = next((f for f in side.fighters if f.uid == protege), None)
    else:
        side.attacker_cards -= 1
    synergy_changed = side.count_race(fighter.race, +1)
    fighter.refresh()
    if not fighter.is_def:
        schedule_attack(b, fighter, start)
    if synergy_changed:
        for other in side.fighters:
            retime(b, other, start)
    if b.entries is not None:
        entry: dict[str, object] = {"t": 0, "k": "play", "seat": side.seat, "tgt": uid, "card": line.r1.card}
        entry["hp"] = fighter.hp
        if protege is not None:
            entry["protege"] = protege
        b.entries.append(entry)
    return fighter


def try_evolve(b: Battle, fighter: Fighter) -> None:
    """End of round: roll the copy's bonus as the evolution chance (a Basique 0★ never evolves)."""
    if not fighter.alive:
        return
    options = fighter.evolutions
    if not options:
        return
    if b.rnd() * 1000 >= fighter.bonus_bp // 10:  # the copy's bonus in per-mille (`Fighter.set_card`)
        return
    if len(options) == 1:
        evolve(b, fighter, options[0], b.round_end)
    else:
        fighter.path_options = tuple(c.card for c in options)
        _log(
            b,
            {"t": ROUND_MS, "k": "evolve_choice", "tgt": fighter.uid, "options": list(fighter.path_options)},
        )


def evolve(b: Battle, fighter: Fighter, copy: CopySpec, now: int) -> None:
    """Become the next card at battle time `now` (a round's end, or the next round's start after a chosen
    path); the damage taken and the statuses stay. It happens between two rounds, so the new card's
    interval paces the next round's new cycle (`retime` only keeps the pending hit consistent meanwhile)."""
    before = fighter.card.id
    fighter.set_card(b.cards[copy.card], copy)
    fighter.refresh()
    retime(b, fighter, now)
    if b.entries is not None:
        b.entries.append(
            {"t": now - b.round_start, "k": "evolve", "tgt": fighter.uid, "from": before, "to": copy.card}
        )


def replace_defenders(b: Battle, side: Side) -> None:
    """End of round: a Défenseur without protégé goes on the only attacker left (several: its owner
    chooses during the pause; none: it waits)."""
    attackers = candidates(side)
    if len(attackers) != 1:
        return
    for d in side.defenders:
        if d.protege is None:
            d.protege = attackers[0]
            _log(b, {"t": ROUND_MS, "k": "place", "tgt": d.uid, "protege": attackers[0].uid})
