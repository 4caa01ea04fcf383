"""One turn's steps: a single legality predicate and their effects, shared by the step-wise protocol and
the whole-turn submission (`Turn`), so both interfaces accept exactly the same play.

Order and decisions are in docs/choco/rules-notes.md; the rulebook reference is IV.2 and IV.3.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.choco.effects import is_under, placed, play_pure, valid_choices
from engine.choco.state import (
    ATTACKS,
    DISCARDS,
    EFFECTS,
    HAND_LIMIT,
    HAND_TARGET,
    MOVES,
    SLOTS_PER_LINE,
    SUMMON,
    Attack,
    Card,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Line,
    Move,
    PlayEffect,
    Side,
    Step,
    Summon,
    TurnProgress,
    evolve,
)
from engine.errors import IllegalAction
from engine.protocol import Event

StepOrEnd = Step | EndTurn
PHASE_OF: dict[str, int] = {
    "summon": SUMMON,
    "play_effect": EFFECTS,
    "move": MOVES,
    "attack": ATTACKS,
    "deck_attack": ATTACKS,
    "discard": DISCARDS,
    "end": DISCARDS,
}
KINDS = frozenset(PHASE_OF)  # every kind of step, the end of the turn included


def _illegal(why: str) -> IllegalAction:
    return IllegalAction("error.illegal_action", reason=why)


def find(cards: tuple[Card, ...], uid: str) -> Card | None:
    return next((c for c in cards if c.uid == uid), None)


def line_of(side: Side, uid: str) -> Line | None:
    if find(side.front, uid):
        return "front"
    if find(side.reserve, uid):
        return "reserve"
    return None


def free(side: Side, line: Line) -> bool:
    return len(side.front if line == "front" else side.reserve) < SLOTS_PER_LINE


def summon_pending(side: Side, progress: TurnProgress) -> bool:
    """The summon is mandatory while a wizard is in hand and a slot is free (IV.2, 2nd action), in the
    summon phase only: a wizard that reaches the hand later in the turn (a pure effect's recall or draw)
    can no longer be summoned (phase order), so it cannot be owed either, or the turn could not go on."""
    room = free(side, "front") or free(side, "reserve")
    in_phase = progress.phase == SUMMON
    return in_phase and not progress.summoned and any(not c.pure for c in side.hand) and room


def front_missing(side: Side) -> bool:
    """At the end of the moves at least one wizard stands on the front line, when the board has any."""
    return not side.front and bool(side.reserve)


def summons_allowed(state: ChocoState, seat: int) -> int:
    """Two summons when the opponent has at least two more cards on the board at the turn's start."""
    mine, theirs = len(state.sides[seat].board()), len(state.sides[1 - seat].board())
    return 2 if theirs - mine >= 2 else 1


def check(state: ChocoState, seat: int, step: StepOrEnd) -> None:
    """Raise IllegalAction unless `seat` may take `step` now; the only legality rule of a turn."""
    if not _acting(state, seat):
        raise _illegal("not_your_turn")
    refused = _phase_refusal(state, seat, step.kind)
    if refused is not None:
        raise _illegal(refused)
    _check_step(state, seat, step)


def legal_steps(state: ChocoState, seat: int) -> list[StepOrEnd]:
    """The `candidates` that `check` accepts, in their order: what `legal_actions` lists.

    `check` refuses most candidates on rules that look at the step's kind only (the phase order, the
    owed summon, the front line; the summons used up; a deck attack while the enemy has a board): those
    are asked once per kind here, the steps of a closed kind are not even built, and the others go
    through the rest of `check` (`_check_step`). Asking every candidate of `check` raised and caught an
    IllegalAction for most of them, the larger part of the engine's time for a step (issue 39); the list
    is the same (tests/engine/choco/test_interfaces.py compares them over random games)."""
    if not _acting(state, seat):
        return []
    kinds = {kind for kind in PHASE_OF if _kind_open(state, seat, kind)}
    legal: list[StepOrEnd] = []
    for step in candidates(state, seat, kinds):
        try:
            _check_step(state, seat, step)
        except IllegalAction:
            continue
        legal.append(step)
    return legal


def listed(state: ChocoState, seat: int, step: StepOrEnd) -> bool:
    """`step in legal_steps(state, seat)`, building only the candidates of the step's kind and checking
    the step alone (an equal candidate passes `check` alike): what `is_legal` asks."""
    if not _acting(state, seat) or not _kind_open(state, seat, step.kind):
        return False
    if step not in candidates(state, seat, (step.kind,)):
        return False
    try:
        _check_step(state, seat, step)
    except IllegalAction:
        return False
    return True


def _acting(state: ChocoState, seat: int) -> bool:
    return not (state.finished or state.turn == 0 or seat != state.active)


def _kind_open(state: ChocoState, seat: int, kind: str) -> bool:
    """False when `check` refuses every step of `kind` now, whatever its cards (a pre-filter only)."""
    if _phase_refusal(state, seat, kind) is not None:
        return False
    if kind == "summon":
        return not _summons_used(state.progress)
    if kind == "deck_attack":
        return _deck_open(state.sides[1 - seat])
    return True


def _check_step(state: ChocoState, seat: int, step: StepOrEnd) -> None:
    """`check` past the turn and the phase rules: what the step's own cards and targets allow."""
    side, enemy, prog = state.sides[seat], state.sides[1 - seat], state.progress
    if isinstance(step, Summon):
        _check_summon(state, seat, step)
    elif isinstance(step, PlayEffect):
        card = find(side.hand, step.card)
        if card is None or not card.pure or prog.effects_played >= 2:
            raise _illegal("cannot_play_effect")
        if not valid_choices(state, seat, state.effects[card.card_id], step.targets):
            raise _illegal("bad_effect_target")
    elif isinstance(step, Move):
        _check_move(side, prog, step)
    elif isinstance(step, Attack):
        _check_attacker(state, side, prog, step.attacker)
        if find(enemy.front, step.target) is None or is_under(state, step.target, "protect"):
            raise _illegal("bad_target")
    elif isinstance(step, DeckAttack):
        _check_attacker(state, side, prog, step.attacker)
        if not _deck_open(enemy):
            raise _illegal("no_deck_attack")
    elif isinstance(step, Discard) and find(side.hand, step.card) is None:
        raise _illegal("not_in_hand")


def _phase_refusal(state: ChocoState, seat: int, kind: str) -> str | None:
    """Why a step of `kind` may not come now, or None. The phases go in order (an extra summon may come
    back from the effects), and a phase may not start while an earlier one still owes something: the
    summon, a wizard on the front line."""
    side, prog = state.sides[seat], state.progress
    phase = PHASE_OF[kind]
    extra = kind == "summon" and prog.extra_summons > 0 and prog.phase == EFFECTS
    if phase < prog.phase and not extra:
        return "phase_order"
    if phase > SUMMON and summon_pending(side, prog):
        return "summon_required"
    if phase > MOVES and front_missing(side):
        return "front_empty"
    return None


def _summons_used(prog: TurnProgress) -> bool:
    return len(prog.summoned) >= prog.summons_allowed + prog.extra_summons


def _deck_open(enemy: Side) -> bool:
    """A deck attack needs an empty enemy board and a card in the enemy's pioche (IV.2, 5th action)."""
    return not enemy.board() and bool(enemy.pioche)


def _check_summon(state: ChocoState, seat: int, step: Summon) -> None:
    side, prog = state.sides[seat], state.progress
    card = find(side.hand, step.card)
    if _summons_used(prog) or card is None or card.pure:
        raise _illegal("cannot_summon")
    effect = state.effects.get(card.card_id)
    if step.targets and (effect is None or not valid_choices(state, seat, effect, step.targets)):
        raise _illegal("bad_effect_target")
    if not (free(side, "front") or free(side, "reserve")):
        raise _illegal("board_full")
    if _placed_line(side, step.line) == "reserve" and not side.front and not _movable_reserve(side, prog):
        raise _illegal("front_empty")


def _check_move(side: Side, prog: TurnProgress, step: Move) -> None:
    where = line_of(side, step.card)
    # An effect can empty the front after the summon: the summoned card may then refill it (rules-notes).
    rescue = not side.front and not _movable_reserve(side, prog)
    if where is None or where == step.line or step.card in prog.moved:
        raise _illegal("cannot_move")
    if step.card in prog.summoned and not rescue:
        raise _illegal("cannot_move")
    if not free(side, step.line):
        raise _illegal("line_full")
    if where == "front" and len(side.front) == 1:
        raise _illegal("front_empty")


def _check_attacker(state: ChocoState, side: Side, prog: TurnProgress, uid: str) -> None:
    if find(side.front, uid) is None or uid in prog.attacked or is_under(state, uid, "stun"):
        raise _illegal("cannot_attack")


def _movable_reserve(side: Side, prog: TurnProgress) -> bool:
    return any(c.uid not in prog.summoned and c.uid not in prog.moved for c in side.reserve)


def _placed_line(side: Side, wanted: Line) -> Line:
    """Fault rule V.1: a card placed on a full line goes to a free slot, the front line first."""
    if free(side, wanted):
        return wanted
    return "front" if free(side, "front") else "reserve"


def candidates(state: ChocoState, seat: int, kinds: Collection[str] = KINDS) -> list[StepOrEnd]:
    """Every step that might be legal, in a deterministic order; `check` filters them. `kinds`: only the
    steps of those kinds, in the same order (the others are not built)."""
    side, enemy = state.sides[seat], state.sides[1 - seat]
    summons, effects = "summon" in kinds, "play_effect" in kinds
    steps: list[StepOrEnd] = []
    for card in side.hand:
        if card.pure:
            if effects:
                steps.append(PlayEffect(card=card.uid))
        elif summons:
            steps += [Summon(card=card.uid, line="front"), Summon(card=card.uid, line="reserve")]
    if "move" in kinds:
        steps += [Move(card=c.uid, line="reserve") for c in side.front]
        steps += [Move(card=c.uid, line="front") for c in side.reserve]
    attacks, deck_attacks = "attack" in kinds, "deck_attack" in kinds
    for attacker in side.front:
        if attacks:
            steps += [Attack(attacker=attacker.uid, target=t.uid) for t in enemy.front]
        if deck_attacks:
            steps.append(DeckAttack(attacker=attacker.uid))
    if "discard" in kinds:
        steps += [Discard(card=c.uid) for c in side.hand]
    if "end" in kinds:
        steps.append(EndTurn())
    return steps


def _with(side: Side, **update: object) -> Side:
    return evolve(side, update)


def _set_side(state: ChocoState, seat: int, side: Side) -> ChocoState:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return evolve(state, {"sides": sides})


def _damage(side: Side, uid: str, amount: int) -> tuple[Side, bool]:
    """Lower a board wizard's PV; at 0 it goes straight to the graveyard (IV.3)."""
    line = line_of(side, uid)
    cards = side.front if line == "front" else side.reserve
    card = find(cards, uid)
    assert card is not None
    hurt = evolve(card, {"pv": card.pv - amount})
    if hurt.pv <= 0:
        rest = tuple(c for c in cards if c.uid != uid)
        return _with(side, **{str(line): rest, "graveyard": (*side.graveyard, hurt)}), True
    return _with(side, **{str(line): tuple(hurt if c.uid == uid else c for c in cards)}), False


def do_step(state: ChocoState, seat: int, step: Step) -> tuple[ChocoState, list[Event]]:
    """Apply a step already accepted by `check`."""
    side, prog = state.sides[seat], state.progress
    phase = PHASE_OF[step.kind]
    events: list[Event] = []
    if isinstance(step, PlayEffect):
        card = find(side.hand, step.card)
        assert card is not None
        prog = evolve(prog, {"effects_played": prog.effects_played + 1, "phase": max(prog.phase, phase)})
        state = evolve(state, {"progress": prog})
        return play_pure(state, seat, card, step.targets, step.recall)
    if isinstance(step, Summon):
        card = find(side.hand, step.card)
        assert card is not None
        line = _placed_line(side, step.line)
        hand = tuple(c for c in side.hand if c.uid != card.uid)
        side = _with(side, hand=hand, **{line: (*getattr(side, line), card)})
        prog = evolve(prog, {"summoned": (*prog.summoned, card.uid)})
        events.append(
            Event("summoned", {"seat": seat, "card": card.uid, "card_id": card.card_id, "line": line})
        )
        prog = evolve(prog, {"phase": max(prog.phase, phase)})
        state = evolve(_set_side(state, seat, side), {"progress": prog})
        state, more = placed(state, seat, card, step.targets, step.recall)
        return state, events + more
    elif isinstance(step, Move):
        old: Line = "reserve" if step.line == "front" else "front"
        card = find(getattr(side, old), step.card)
        assert card is not None
        side = _with(
            side,
            **{old: tuple(c for c in getattr(side, old) if c.uid != card.uid)},
            **{step.line: (*getattr(side, step.line), card)},
        )
        prog = evolve(prog, {"moved": (*prog.moved, card.uid)})
        events.append(Event("moved", {"seat": seat, "card": card.uid, "line": step.line}))
    elif isinstance(step, Attack):
        attacker = find(side.front, step.attacker)
        assert attacker is not None
        enemy, died = _damage(state.sides[1 - seat], step.target, attacker.pa)
        state = _set_side(state, 1 - seat, enemy)
        prog = evolve(prog, {"attacked": (*prog.attacked, attacker.uid)})
        data = {"seat": seat, "attacker": attacker.uid, "target": step.target, "damage": attacker.pa}
        events.append(Event("attacked", {**data, "killed": died}))
    elif isinstance(step, DeckAttack):
        state, side, prog, events = _deck_attack(state, seat, side, prog, step.attacker)
    else:
        card = find(side.hand, step.card)
        assert card is not None
        hand = tuple(c for c in side.hand if c.uid != card.uid)
        side = _with(side, hand=hand, graveyard=(*side.graveyard, card))
        events.append(Event("discarded", {"seat": seat, "card": card.uid, "card_id": card.card_id}))
    prog = evolve(prog, {"phase": max(prog.phase, phase)})
    state = evolve(_set_side(state, seat, side), {"progress": prog})
    if isinstance(step, Discard):  # a voluntary discard is no loss in combat (VI.4)
        state = state.spare(seat, step.card)
    return state, events


def _deck_attack(
    state: ChocoState, seat: int, side: Side, prog: TurnProgress, uid: str
) -> tuple[ChocoState, Side, TurnProgress, list[Event]]:
    """IV.2 5th action, special case: a random pioche card loses the attacker's PA; the first is free."""
    attacker = find(side.front, uid)
    assert attacker is not None
    rng, rng_state = state.rng.advance()
    enemy = state.sides[1 - seat]
    index = rng.randrange(len(enemy.pioche))
    hit = enemy.pioche[index]
    hurt = evolve(hit, {"pv": hit.pv - attacker.pa})
    rest = enemy.pioche[:index] + enemy.pioche[index + 1 :]
    if hurt.pv <= 0 or hit.pure:  # a pure effect card hit is destroyed (IV.2, 5th action)
        enemy = _with(enemy, pioche=rest, graveyard=(*enemy.graveyard, hurt))
    else:
        enemy = _with(enemy, pioche=(*rest[:index], hurt, *rest[index:]))
    sacrificed = prog.deck_attacks >= 1
    if sacrificed:
        side = _with(
            side, front=tuple(c for c in side.front if c.uid != uid), graveyard=(*side.graveyard, attacker)
        )
    prog = evolve(prog, {"attacked": (*prog.attacked, uid), "deck_attacks": prog.deck_attacks + 1})
    state = evolve(_set_side(state, 1 - seat, enemy), {"rng": rng_state})
    data = {"seat": seat, "attacker": uid, "card_id": hit.card_id, "damage": attacker.pa}
    event = Event("deck_attacked", {**data, "killed": hurt.pv <= 0 or hit.pure, "sacrificed": sacrificed})
    return state, side, prog, [event]


def draw(side: Side, bonus: int = 0) -> tuple[Side, tuple[Card, ...]]:
    """Turn-start draw: up to 5 in hand, at least one card, never above 8 (IV.2, 1st action), plus
    `bonus` cards granted by an opponent's fault (V.1), still within the 8-card limit.

    The pioche is kept shuffled, so drawing from its top is a random draw."""
    wanted = max(1, HAND_TARGET - len(side.hand)) + bonus
    count = max(0, min(wanted, HAND_LIMIT - len(side.hand), len(side.pioche)))
    drawn = side.pioche[:count]
    return _with(side, pioche=side.pioche[count:], hand=side.hand + drawn), drawn
