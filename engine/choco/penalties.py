"""The game effects of the rulebook's faults and penalties (V), as pure functions the service calls.

When to call them is service-level timing (24 h / 72 h without an answer, a declared absence); what they
do to the game is a rule, so it lives here, seeded from the state's own random stream like any chance.
"""

from __future__ import annotations

from engine.choco.cycle import end_turn, prepare
from engine.choco.effects import placed
from engine.choco.state import HAND_LIMIT, Card, ChocoState, Prepare, Side, evolve
from engine.choco.turn import summon_pending
from engine.errors import IllegalAction
from engine.protocol import Event

PASSES_TO_DISQUALIFY = 2


def _set(state: ChocoState, seat: int, side: Side) -> ChocoState:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return evolve(state, {"sides": sides})


def _check_active(state: ChocoState, seat: int) -> None:
    if state.finished or state.turn == 0 or seat != state.active:
        raise IllegalAction("error.illegal_action", reason="not_your_turn")


def _check_late(state: ChocoState, seat: int) -> None:
    """The player the game waits for: the active one, or in the preparatory turn (IV.1: "le premier tour
    d'une partie", so V.2 holds there too) each player who has not placed a card yet."""
    waiting = state.prepared[seat] is None if state.turn == 0 else seat == state.active
    if state.finished or seat not in (0, 1) or not waiting:
        raise IllegalAction("error.illegal_action", reason="not_your_turn")


def inactivity_24h(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """V.2: a random card of the idle player's pioche is destroyed, from the hand if the pioche is empty."""
    _check_late(state, seat)
    side = state.sides[seat]
    source = "pioche" if side.pioche else "hand"
    pile = getattr(side, source)
    if not pile:
        return state, []
    rng, rng_state = state.rng.advance()
    index = rng.randrange(len(pile))
    lost = pile[index]
    side = evolve(side, {source: pile[:index] + pile[index + 1 :], "graveyard": (*side.graveyard, lost)})
    state = evolve(_set(state, seat, side), {"rng": rng_state}).spare(seat, lost.uid)
    event = Event(
        "penalty_destroyed", {"seat": seat, "from": source, "card": lost.uid, "card_id": lost.card_id}
    )
    return state, [event]


def inactivity_72h(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """V.2: the turn is passed. An empty board gets a random hand card on the front line; an empty front
    with a reserve gets a random reserve card moved forward. The second passed turn disqualifies.

    Returns the state at the opponent's turn (or the finished game); the caller never calls `apply` for
    the passed turn."""
    _check_late(state, seat)
    if state.turn == 0:
        return _pass_preparation(state, seat)
    side = state.sides[seat]
    events = [Event("turn_passed", {"seat": seat})]
    rng, rng_state = state.rng.advance()
    placed_card: Card | None = None
    if not side.board() and side.hand and summon_pending(side, state.progress):
        wizards = [c for c in side.hand if not c.pure]
        card = wizards[rng.randrange(len(wizards))]
        placed_card = card
        hand = tuple(c for c in side.hand if c.uid != card.uid)
        side = evolve(side, {"hand": hand, "front": (card,)})
        events.append(Event("penalty_placed", {"seat": seat, "card": card.uid, "card_id": card.card_id}))
    elif not side.front and side.reserve:
        card = side.reserve[rng.randrange(len(side.reserve))]
        reserve = tuple(c for c in side.reserve if c.uid != card.uid)
        side = evolve(side, {"reserve": reserve, "front": (card,)})
        events.append(Event("penalty_moved", {"seat": seat, "card": card.uid}))
    passes = list(state.passes)
    passes[seat] += 1
    state = evolve(_set(state, seat, side), {"rng": rng_state, "passes": (passes[0], passes[1])})
    if placed_card is not None:  # an effect wizard placed by the penalty still triggers its effect
        state, more = placed(state, seat, placed_card)
        events += more
    if passes[seat] >= PASSES_TO_DISQUALIFY:
        events.append(Event("disqualified", {"seat": seat}))
        return forfeit(state, seat, absence=True)[0], events
    state, more = end_turn(state)
    return state, events + more


def _pass_preparation(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """V.2's pass in the preparatory turn: the board is empty, so a random wizard of the hand goes to the
    front line, through the ordinary secret placement (face down until both are placed, an effect wizard
    triggering at the reveal). It counts as a passed turn like any other. The engine's "prepared" event
    is replaced by `prepare_forced`, which names the player, never the card (still hidden here)."""
    rng, rng_state = state.rng.advance()
    wizards = [c for c in state.sides[seat].hand if not c.pure]
    card = wizards[rng.randrange(len(wizards))]
    passes = list(state.passes)
    passes[seat] += 1
    state = evolve(state, {"rng": rng_state, "passes": (passes[0], passes[1])})
    state, more = prepare(state, seat, Prepare(card=card.uid, line="front"))
    events = [Event("turn_passed", {"seat": seat}), Event("prepare_forced", {"seat": seat})]
    return state, events + [e for e in more if e.kind != "prepared"]


def fault_unowned_card(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """V.1: `seat` declared a card they do not hold: their opponent draws one extra card at their next
    draw (the engine already refused the declaration, so the player corrects it and resubmits)."""
    _check_active(state, seat)
    bonus = list(state.bonus_draws)
    bonus[1 - seat] += 1
    state = evolve(state, {"bonus_draws": (bonus[0], bonus[1])})
    return state, [Event("fault_unowned_card", {"seat": seat, "bonus_to": 1 - seat})]


def forfeit(state: ChocoState, seat: int, absence: bool = False) -> tuple[ChocoState, list[Event]]:
    """IV.4: a player may give up at any time (or is disqualified for absence); the opponent wins."""
    if state.finished or seat not in (0, 1):
        raise IllegalAction("error.illegal_action", reason="game_over")
    reason = "absence" if absence else "voluntary"
    state = evolve(state, {"finished": True, "winner": 1 - seat, "forfeit": reason})
    return state, [Event("forfeit", {"seat": seat, "reason": reason})]


def restore_destroyed(state: ChocoState, seat: int, uid: str, source: str) -> tuple[ChocoState, list[Event]]:
    """A referee cancels a 24 h penalty: the destroyed card leaves the graveyard for the pile it came from
    (the bottom of the pioche, or the hand within its limit). Refused once the card left the graveyard."""
    side = state.sides[seat]
    card = next((c for c in side.graveyard if c.uid == uid), None)
    if state.finished or card is None or source not in ("pioche", "hand"):
        raise IllegalAction("error.illegal_action", reason="cannot_restore")
    if source == "hand" and len(side.hand) >= HAND_LIMIT:
        source = "pioche"
    graveyard = tuple(c for c in side.graveyard if c.uid != uid)
    pile = (*getattr(side, source), card)
    state = _set(state, seat, evolve(side, {"graveyard": graveyard, source: pile}))
    return state, [Event("penalty_cancelled", {"seat": seat, "card_id": card.card_id, "to": source})]


def forgive_pass(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    """A referee cancels a 72 h penalty: the turn stays passed, but it no longer counts towards the
    disqualification (V.2)."""
    if state.finished or state.passes[seat] <= 0:
        raise IllegalAction("error.illegal_action", reason="cannot_restore")
    passes = list(state.passes)
    passes[seat] -= 1
    state = evolve(state, {"passes": (passes[0], passes[1])})
    return state, [Event("pass_forgiven", {"seat": seat})]
