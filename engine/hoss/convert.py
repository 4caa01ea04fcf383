"""The exact translation between the frozen `HossState` and the mutable `Battle`, at decision points.

Only what the future depends on is stored; everything derived (stats, synergy, guards, counters,
target pools) is rebuilt. The translation is lossless: a battle taken to a state and back continues
exactly as the original would, which `tests/engine/hoss/test_engine.py` checks by comparing the fast
path (never converted) with the protocol path (converted at every decision).
"""

from __future__ import annotations

from engine.hoss.battle import Battle
from engine.hoss.damage import Deflection
from engine.hoss.fighters import Fighter, Side
from engine.hoss.rules import synergy_bp
from engine.hoss.state import CopySpec, DeflectionState, FighterState, HossState, LineSpec, SeatState


def _copy(line: LineSpec, card: str) -> CopySpec:
    return next(c for c in (line.r1, *line.r2, *line.r3) if c.card == card)


def _fighter_state(f: Fighter) -> FighterState:
    return FighterState(
        uid=f.uid,
        card=f.card.id,
        damage=f.damage,
        shield=f.shield,
        poison=f.poison,
        bleed=f.bleed,
        bleed_next=f.bleed_next,
        burn=f.burn,
        burn_next=f.burn_next,
        burn_crit_bp=f.burn_crit_bp,
        burn_mult_bp=f.burn_mult_bp,
        bris_bp=f.bris_bp,
        gel_bp=f.gel_bp,
        frozen=f.frozen,
        shock_until=f.shock_until,
        confused=f.confused,
        next_hit=f.attack_at,
        cycle_start=f.cycle_start,
        protege=f.protege.uid if f.protege is not None else None,
        revived=f.revived,
    )


def _seat_state(side: Side) -> SeatState:
    return SeatState(
        deck=side.deck,
        hand=tuple(side.hand),
        pile=tuple(side.pile),
        fighters=tuple(_fighter_state(f) for f in side.fighters),
        steps=tuple(side.steps),
        answers=tuple(side.answers),
    )


def to_state(b: Battle) -> HossState:
    return HossState(
        rng=b.rng_state,
        round=b.round,
        cards=tuple(b.cards[card] for card in sorted(b.cards)),
        seats=(_seat_state(b.sides[0]), _seat_state(b.sides[1])),
        deflections=tuple(
            DeflectionState(time=d.time, seat=d.seat, damage=d.damage, source=d.source) for d in b.deflections
        ),
        move_pauses=b.move_pauses,
        finished=b.over,
        winners=b.winners,
        reason=b.reason,
        scores=b.scores,
    )


def _restore_side(side: Side, seat: SeatState) -> None:
    cards = side.cards
    side.hand = list(seat.hand)
    side.pile = list(seat.pile)
    side.attacker_cards = sum(1 for uid in (*seat.hand, *seat.pile) if not side.is_defender_card(uid))
    by_uid: dict[str, Fighter] = {}
    for fs in seat.fighters:
        line = side.line(fs.uid)
        f = Fighter(fs.uid, side, cards[fs.card], _copy(line, fs.card))
        f.damage = fs.damage
        f.shield = fs.shield
        f.poison = fs.poison
        f.bleed = fs.bleed
        f.bleed_next = fs.bleed_next
        f.burn = fs.burn
        f.burn_next = fs.burn_next
        f.burn_crit_bp = fs.burn_crit_bp
        f.burn_mult_bp = fs.burn_mult_bp
        f.bris_bp = fs.bris_bp
        f.bris = fs.bris_bp / 10000
        f.gel_bp = fs.gel_bp
        f.frozen = fs.frozen
        f.shock_until = fs.shock_until
        f.confused = fs.confused
        f.attack_at = fs.next_hit
        f.cycle_start = fs.cycle_start
        f.revived = fs.revived
        side.fighters.append(f)
        by_uid[f.uid] = f
        if f.is_def:
            side.defenders.append(f)
        side.race_count[f.race] += 1
    for fs in seat.fighters:
        if fs.protege is not None:
            by_uid[fs.uid].protege = by_uid[fs.protege]
    side.synergy = [synergy_bp(count) for count in side.race_count]
    side.steps = list(seat.steps)
    side.answers = list(seat.answers)
    for step in seat.steps:
        if step.kind == "path":
            by_uid[step.subject].path_options = step.options


def from_state(state: HossState, *, log: bool = False, refresh: bool = False) -> Battle:
    """The battle at this decision point. Stats are computed lazily (a segment refreshes them first);
    pass `refresh=True` to read them right away (views)."""
    cards = {card.id: card for card in state.cards}
    b = Battle((state.seats[0].deck, state.seats[1].deck), cards, state.rng, log, state.move_pauses)
    b.round = state.round
    for side, seat in zip(b.sides, state.seats, strict=True):
        _restore_side(side, seat)
    b.deflections = [Deflection(d.time, d.seat, d.damage, d.source) for d in state.deflections]
    b.over = state.finished
    b.winners = state.winners
    b.reason = state.reason
    b.scores = state.scores
    if refresh:
        for f in b.fighters():
            f.refresh()
    return b


def copy_battle(b: Battle, *, log: bool = False) -> Battle:
    """`from_state(to_state(b), log=log)` without building the frozen models: the look-aheads copy the
    battle several times per Rang 2 choice, and the pydantic round trip was most of a copy's cost.

    The copy holds what the round trip keeps and nothing else: the same immutable specs (decks, cards,
    steps), new lists and creatures for everything that changes, no log records, draws or hit count.
    Its creatures keep their derived stats, which are exactly what `Fighter.refresh` computes again
    after a restore (they follow from card, copy, synergy and buffs, refreshed on every change); target
    pools, which the round trip does not keep, are recomputed at the first hit. The sides share their
    stats caches: pure values keyed by card and bonus under the same buffs."""
    return Battle((b.sides[0].deck, b.sides[1].deck), b.cards, b.rng_state, log, b.move_pauses, b)
