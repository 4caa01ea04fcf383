"""The effect interpreter: the 13 step kinds of docs/choco/cards.md, targets, durations and end-of-turn
triggers. Decisions where the vocabulary is silent are in docs/choco/rules-notes.md ("Effects")."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.choco.catalog import Effect, Step
from engine.choco.state import HAND_LIMIT, SLOTS_PER_LINE, Active, Card, ChocoState, Side, Timed, evolve
from engine.protocol import Event

CHOSEN = ("ally", "enemy")
SINGLE = ("ally", "enemy", "random_ally", "random_enemy")


def side_set(state: ChocoState, seat: int, side: Side) -> ChocoState:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return evolve(state, {"sides": sides})


def chosen_kinds(effect: Effect) -> list[str]:
    """The distinct chosen targets of an effect, in the order `targets` answers them."""
    kinds: list[str] = []
    for step in effect.steps:
        target = getattr(step, "target", None)
        if target in CHOSEN and target not in kinds:
            kinds.append(target)
    return kinds


def valid_choices(state: ChocoState, owner: int, effect: Effect, targets: Sequence[str]) -> bool:
    kinds = chosen_kinds(effect)
    if len(targets) > len(kinds):
        return False
    for kind, uid in zip(kinds, targets, strict=False):
        seat = owner if kind == "ally" else 1 - owner
        if uid not in {c.uid for c in state.sides[seat].board()}:
            return False
    return True


def _board_uids(side: Side) -> list[str]:
    return [c.uid for c in side.board()]


def _targets(
    state: ChocoState, owner: int, source: str | None, target: str, picked: dict[str, str], rng: random.Random
) -> list[str]:
    mine, theirs = state.sides[owner], state.sides[1 - owner]
    if target == "self":
        return [source] if source is not None and source in _board_uids(mine) else []
    if target in SINGLE:
        pool = _board_uids(mine if target in ("ally", "random_ally") else theirs)
        if target not in picked:
            if not pool:
                return []
            picked[target] = pool[rng.randrange(len(pool))]
        return [picked[target]] if picked[target] in pool else []
    groups = {
        "all_allies": mine.board(),
        "all_enemies": theirs.board(),
        "ally_front": mine.front,
        "ally_reserve": mine.reserve,
        "enemy_front": theirs.front,
        "enemy_reserve": theirs.reserve,
    }
    return [c.uid for c in groups[target]]


def _locate(state: ChocoState, uid: str) -> tuple[int, str, Card] | None:
    for seat, side in enumerate(state.sides):
        for line in ("front", "reserve"):
            for card in getattr(side, line):
                if card.uid == uid:
                    return seat, line, card
    return None


def _replace(state: ChocoState, uid: str, card: Card | None) -> ChocoState:
    """Put `card` in place of wizard `uid`; None, or a card at 0 PV, goes to the graveyard."""
    where = _locate(state, uid)
    assert where is not None
    seat, line, old = where
    side = state.sides[seat]
    cards: tuple[Card, ...] = getattr(side, line)
    if card is None or card.pv <= 0:
        dead = card or old
        rest = tuple(c for c in cards if c.uid != uid)
        side = evolve(side, {line: rest, "graveyard": (*side.graveyard, dead)})
        state = evolve(state, {"actives": tuple(a for a in state.actives if a.uid != uid)})
        state = evolve(state, {"timed": tuple(t for t in state.timed if t.uid != uid)})
    else:
        side = evolve(side, {line: tuple(card if c.uid == uid else c for c in cards)})
    return side_set(state, seat, side)


def _take_random(
    cards: tuple[Card, ...], count: int, rng: random.Random
) -> tuple[tuple[Card, ...], list[Card]]:
    rest, taken = list(cards), []
    for _ in range(min(count, len(rest))):
        taken.append(rest.pop(rng.randrange(len(rest))))
    return tuple(rest), taken


def resolve(
    state: ChocoState,
    owner: int,
    source: str | None,
    card_id: str,
    targets: Sequence[str] = (),
    recall: Sequence[str] = (),
) -> tuple[ChocoState, list[Event]]:
    """Resolve one activation of `card_id`'s effect for `owner` (`source`: the effect wizard, if any)."""
    effect = state.effects[card_id]
    rng, rng_state = state.rng.advance()
    state = evolve(state, {"rng": rng_state})
    picked = dict(zip(chosen_kinds(effect), targets, strict=False))
    events = [Event("effect", {"seat": owner, "card": source, "card_id": card_id})]
    for step in effect.steps:
        state, more = _step(state, owner, source, card_id, step, picked, list(recall), rng)
        events += more
    return state, events


def _step(
    state: ChocoState,
    owner: int,
    source: str | None,
    card_id: str,
    step: Step,
    picked: dict[str, str],
    recall: list[str],
    rng: random.Random,
) -> tuple[ChocoState, list[Event]]:
    kind = step.kind
    target = getattr(step, "target", None)
    hit = _targets(state, owner, source, target, picked, rng) if target is not None else []
    events: list[Event] = []
    if kind in ("damage", "heal", "modify", "protect", "stun", "destroy", "move"):
        for uid in hit:
            state = _on_wizard(state, owner, uid, step, card_id)
        events.append(Event("effect_step", {"seat": owner, "step": kind, "targets": hit}))
        return state, events
    mine, theirs = state.sides[owner], state.sides[1 - owner]
    count = int(getattr(step, "count", 0))
    if kind == "draw":
        n = max(0, min(count, HAND_LIMIT - len(mine.hand), len(mine.pioche)))
        drawn = mine.pioche[:n]
        state = side_set(state, owner, evolve(mine, {"pioche": mine.pioche[n:], "hand": mine.hand + drawn}))
        events.append(
            Event("drew", {"seat": owner, "cards": [c.uid for c in drawn]}, visible_to=frozenset({owner}))
        )
        events.append(Event("drew_count", {"seat": owner, "count": n}))
    elif kind in ("discard", "mill"):
        field = "hand" if kind == "discard" else "pioche"
        rest, taken = _take_random(getattr(theirs, field), count, rng)
        theirs = evolve(theirs, {field: rest, "graveyard": (*theirs.graveyard, *taken)})
        state = side_set(state, 1 - owner, theirs)
        cards = [{"card": c.uid, "card_id": c.card_id} for c in taken]
        events.append(Event("effect_" + kind, {"seat": 1 - owner, "cards": cards}))
    elif kind == "recall":
        wizards = [c for c in mine.graveyard if not c.pure]
        chosen = [c for c in wizards if c.uid in recall] or list(reversed(wizards))
        chosen = chosen[: max(0, min(count, HAND_LIMIT - len(mine.hand)))]
        back = tuple(
            evolve(
                c,
                {
                    "pa": c.base_pa if c.base_pa is not None else c.pa,
                    "pv": c.base_pv if c.base_pv is not None else c.max_pv,
                    "max_pv": c.base_pv if c.base_pv is not None else c.max_pv,
                },
            )
            for c in chosen
        )
        uids = {c.uid for c in chosen}
        grave = tuple(c for c in mine.graveyard if c.uid not in uids)
        state = side_set(state, owner, evolve(mine, {"graveyard": grave, "hand": mine.hand + back}))
        # The cards were public in the graveyard: their catalog ids are public, their instance ids private.
        events.append(
            Event("effect_recall", {"seat": owner, "cards": sorted(uids)}, visible_to=frozenset({owner}))
        )
        events.append(Event("effect_recall_count", {"seat": owner, "card_ids": [c.card_id for c in chosen]}))
    elif kind == "extra_summon":
        prog = state.progress
        if state.active == owner:
            state = evolve(state, {"progress": evolve(prog, {"extra_summons": prog.extra_summons + count})})
        events.append(Event("effect_step", {"seat": owner, "step": kind, "count": count}))
    elif kind == "redraw":
        state, more = redraw(state, owner, rng)
        events += more
    return state, events


def redraw(state: ChocoState, seat: int, rng: random.Random) -> tuple[ChocoState, list[Event]]:
    """The whole hand back into the pioche, shuffled, then as many cards drawn."""
    side = state.sides[seat]
    pool = list(side.pioche + side.hand)
    rng.shuffle(pool)
    n = len(side.hand)
    side = evolve(side, {"hand": tuple(pool[:n]), "pioche": tuple(pool[n:])})
    state = side_set(state, seat, side)
    return state, [
        Event("redrew", {"seat": seat, "cards": [c.uid for c in side.hand]}, visible_to=frozenset({seat})),
        Event("redrew_count", {"seat": seat, "count": n}),
    ]


def _on_wizard(state: ChocoState, owner: int, uid: str, step: Step, card_id: str) -> ChocoState:
    where = _locate(state, uid)
    if where is None:  # gone since an earlier step
        return state
    seat, line, card = where
    if step.kind == "damage":
        return _replace(state, uid, evolve(card, {"pv": card.pv - step.amount}))
    if step.kind == "heal":
        return _replace(state, uid, evolve(card, {"pv": min(card.max_pv, card.pv + step.amount)}))
    if step.kind == "destroy":
        return _replace(state, uid, None)
    if step.kind == "modify":
        changed = evolve(
            card, {"pa": max(0, card.pa + step.pa), "pv": card.pv + step.pv, "max_pv": card.max_pv + step.pv}
        )
        if step.turns is not None and changed.pv > 0:
            timed = Timed(
                owner=owner,
                uid=uid,
                kind="modify",
                left=step.turns,
                turn=state.turn,
                pa=step.pa,
                pv=step.pv,
                card_id=card_id,
            )
            state = evolve(state, {"timed": (*state.timed, timed)})
        return _replace(state, uid, changed)
    if step.kind in ("protect", "stun"):
        timed = Timed(owner=owner, uid=uid, kind=step.kind, left=step.turns, turn=state.turn, card_id=card_id)
        return evolve(state, {"timed": (*state.timed, timed)})
    if step.kind == "move":
        side = state.sides[seat]
        to = step.to
        if (
            to == line
            or len(getattr(side, to)) >= SLOTS_PER_LINE
            or (line == "front" and len(side.front) == 1)
        ):
            return state
        side = evolve(
            side,
            {
                line: tuple(c for c in getattr(side, line) if c.uid != uid),
                to: (*getattr(side, to), card),
            },
        )
        return side_set(state, seat, side)
    return state


def is_under(state: ChocoState, uid: str, kind: str) -> bool:
    return any(t.uid == uid and t.kind == kind for t in state.timed)


def placed(
    state: ChocoState, seat: int, card: Card, targets: Sequence[str] = (), recall: Sequence[str] = ()
) -> tuple[ChocoState, list[Event]]:
    """An effect wizard reaches the board: its effect resolves; a continuous one is remembered."""
    effect = state.effects.get(card.card_id)
    if effect is None or card.pure:
        return state, []
    if effect.trigger == "continuous":
        active = Active(owner=seat, uid=card.uid, card_id=card.card_id, left=effect.duration, turn=state.turn)
        state = evolve(state, {"actives": (*state.actives, active)})
    return resolve(state, seat, card.uid, card.card_id, targets, recall)


def play_pure(
    state: ChocoState, seat: int, card: Card, targets: Sequence[str], recall: Sequence[str]
) -> tuple[ChocoState, list[Event]]:
    """Action 3: the card leaves the hand, its steps resolve, then graveyard, or the active effects if it stays."""
    side = state.sides[seat]
    side = evolve(side, {"hand": tuple(c for c in side.hand if c.uid != card.uid)})
    state = side_set(state, seat, side)
    effect = state.effects[card.card_id]
    if effect.stays:
        active = Active(
            owner=seat, uid=card.uid, card_id=card.card_id, left=effect.duration, turn=state.turn, card=card
        )
        state = evolve(state, {"actives": (*state.actives, active)})
    else:
        side = state.sides[seat]
        state = side_set(state, seat, evolve(side, {"graveyard": (*side.graveyard, card)}))
    state, events = resolve(state, seat, None, card.card_id, targets, recall)
    return state, [Event("played_effect", {"seat": seat, "card": card.uid, "card_id": card.card_id}), *events]


def end_of_turn(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """Expirations of `seat`'s timed steps first, then its continuous and staying effects, in order."""
    events: list[Event] = []
    kept: list[Timed] = []
    expired: list[Timed] = []
    for t in state.timed:
        if t.owner == seat and t.turn != state.turn:
            t = evolve(t, {"left": t.left - 1})
        (expired if t.left <= 0 else kept).append(t)
    state = evolve(state, {"timed": tuple(kept)})
    for t in expired:
        where = _locate(state, t.uid)
        if where is not None and t.kind == "modify":
            card = where[2]
            undone = evolve(
                card,
                {
                    "pa": max(0, card.pa - t.pa),
                    "pv": max(1, card.pv - t.pv),
                    "max_pv": max(1, card.max_pv - t.pv),
                },
            )
            state = _replace(state, t.uid, undone)
        events.append(Event("effect_expired", {"seat": t.owner, "card": t.uid, "step": t.kind}))
    for active in state.actives:
        if active.owner != seat or active.turn == state.turn:
            continue
        current = next((a for a in state.actives if a.uid == active.uid), None)
        if current is None:
            continue
        if active.card is None and _locate(state, active.uid) is None:
            continue
        source = None if active.card is not None else active.uid
        state, more = resolve(state, seat, source, active.card_id)
        events += more
        left = None if current.left is None else current.left - 1
        rest = tuple(a for a in state.actives if a.uid != active.uid)
        if left is not None and left <= 0:
            state = evolve(state, {"actives": rest})
            if active.card is not None:
                side = state.sides[seat]
                state = side_set(state, seat, evolve(side, {"graveyard": (*side.graveyard, active.card)}))
            events.append(Event("effect_ended", {"seat": seat, "card": active.uid}))
        else:
            updated = tuple(evolve(a, {"left": left}) if a.uid == active.uid else a for a in state.actives)
            state = evolve(state, {"actives": updated})
    return state, events


def magic_excess(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """III.2 "Excès de magie" after a draw: a hand of pure effects only is shuffled back and redrawn, unless
    fewer than 10 cards remain in the pioche and more than one wizard is on the board (both: rules-notes)."""
    side = state.sides[seat]
    if not side.hand or not all(c.pure for c in side.hand):
        return state, []
    if len(side.pioche) < 10 and len(side.board()) > 1:
        return state, []
    rng, rng_state = state.rng.advance()
    state, events = redraw(evolve(state, {"rng": rng_state}), seat, rng)
    return state, [Event("magic_excess", {"seat": seat}), *events]


def prune(state: ChocoState) -> ChocoState:
    """Forget the timed steps and continuous effects of wizards that left the board (by any means)."""
    if not state.timed and not state.actives:  # nothing to forget (most steps of most turns)
        return state
    on_board = {c.uid for side in state.sides for c in side.board()}
    timed = tuple(t for t in state.timed if t.uid in on_board)
    actives = tuple(a for a in state.actives if a.card is not None or a.uid in on_board)
    if timed == state.timed and actives == state.actives:
        return state
    return evolve(state, {"timed": timed, "actives": actives})
