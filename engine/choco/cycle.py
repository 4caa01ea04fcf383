"""The turn cycle: secret placements, a turn's start and end, and the end-of-game check.

It sits below both the engine (`engine.py`) and the penalties (`penalties.py`), which pass or close a
turn the same way a player's `EndTurn` does, so neither has to import the other.
"""

from __future__ import annotations

from engine.choco import effects as fx
from engine.choco.effects import end_of_turn, magic_excess, prune
from engine.choco.state import ChocoState, Prepare, TurnProgress, evolve
from engine.choco.turn import draw, summons_allowed
from engine.protocol import Event


def prepare(state: ChocoState, seat: int, action: Prepare) -> tuple[ChocoState, list[Event]]:
    """Record a secret first placement; the second one reveals both and draws the first player."""
    side = state.sides[seat]
    card = next(c for c in side.hand if c.uid == action.card)
    hand = tuple(c for c in side.hand if c.uid != action.card)
    placed = evolve(side, {"hand": hand, action.line: (card,)})
    sides = (placed, state.sides[1]) if seat == 0 else (state.sides[0], placed)
    prepared = (
        ((action.card, action.line), state.prepared[1])
        if seat == 0
        else (state.prepared[0], (action.card, action.line))
    )
    state = evolve(state, {"sides": sides, "prepared": prepared})
    events = [Event("prepared", {"seat": seat})]
    if None in prepared:
        return state, events
    rng, rng_state = state.rng.advance()
    first = rng.randrange(2)
    for s, choice in enumerate(prepared):
        assert choice is not None
        events.append(Event("revealed", {"seat": s, "card": choice[0], "line": choice[1]}))
    events.append(Event("first_player", {"seat": first}))
    state = evolve(state, {"rng": rng_state, "turn": 1, "active": first})
    state = evolve(state, {"turn": 0})
    for s in (first, 1 - first):  # effect wizards placed secretly trigger at the reveal (rules-notes.md)
        choice = prepared[s]
        assert choice is not None
        shown = next((c for c in state.sides[s].board() if c.uid == choice[0]), None)
        if shown is not None:  # the first player's effect may already have destroyed it
            state, more = fx.placed(state, s, shown)
            events += more
    state = evolve(state, {"turn": 1})
    state, more = start_turn(state, first)
    return state, events + more


def start_turn(state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
    side, drawn = draw(state.sides[seat], state.bonus_draws[seat])
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    bonus = (0, state.bonus_draws[1]) if seat == 0 else (state.bonus_draws[0], 0)
    state = evolve(state, {"sides": sides, "active": seat, "bonus_draws": bonus})
    progress = TurnProgress(summons_allowed=summons_allowed(state, seat))
    state = evolve(state, {"progress": progress})
    cards = [c.uid for c in drawn]
    state, excess = magic_excess(state, seat)
    return state, [
        Event("drew", {"seat": seat, "cards": cards}, visible_to=frozenset({seat})),
        Event("drew_count", {"seat": seat, "count": len(cards)}),
        *excess,
    ]


def settle(state: ChocoState) -> ChocoState:
    """The game ends as soon as one side has no wizard outside the graveyard (IV.4)."""
    state = prune(state)
    alive = (state.sides[0].has_wizard(), state.sides[1].has_wizard())
    if all(alive):
        return state
    winner = None if not any(alive) else (0 if alive[0] else 1)
    return evolve(state, {"finished": True, "winner": winner})


def end_turn(state: ChocoState) -> tuple[ChocoState, list[Event]]:
    """Close the active turn (also used by the 72 h penalty): expirations and continuous effects, end check,
    turn bound, next draw."""
    events: list[Event] = []
    if not state.finished:
        state, events = end_of_turn(state, state.active)
    state = settle(state)
    events.append(Event("turn_ended", {"seat": state.active, "turn": state.turn}))
    if state.finished:
        return state, events
    if state.turn >= state.max_turns:
        return evolve(state, {"finished": True, "winner": None}), events
    state = evolve(state, {"turn": state.turn + 1})
    state, more = start_turn(state, 1 - state.active)
    return state, events + more
