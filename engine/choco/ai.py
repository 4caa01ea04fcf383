"""The bot's opponent in a practice game (docs/choco/practice.md): simple, legal, and blind to what its
seat may not see.

`decide` is the whole policy. It reads only the seat's own view (`ChocoView`: its hand, both boards, the
graveyards and the counts), the legal next steps the engine lists for that seat, and the steps it already
played this turn; it never receives the state, so the opponent's hand and both pioches cannot reach it.
`ai_turn` drives it through the engine, one step at a time, and returns the steps of one whole turn (or
the preparatory placement), which the service then submits like a player's declaration.

The policy, in the turn's order: place or summon its best-valued wizard (PA + PV), on the front line while
the front holds fewer than three wizards, else in the reserve; play one pure effect a turn when it has
one (targets drawn by the engine); bring reserve wizards forward while the front holds fewer than three;
attack with every front wizard, a kill first (the most valuable wizard it can finish), otherwise the
weakest enemy (so its attackers pile onto one target); hit the pioche once (the free deck attack) when
the enemy board is empty; never discard; end the turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.choco.engine import STEPS_PER_TURN, ChocoEngine
from engine.choco.state import (
    Attack,
    Card,
    ChocoAction,
    ChocoState,
    DeckAttack,
    EndTurn,
    Move,
    PlayEffect,
    Prepare,
    Step,
    Summon,
    Turn,
)
from engine.choco.view import ChocoView
from engine.errors import IllegalAction

FRONT_WANTED = 3  # wizards the AI keeps on its front line before it fills the reserve
_ENGINE = ChocoEngine()


def _value(card: Card) -> tuple[int, int, str]:
    return (card.pa + card.pv, card.pa, card.uid)


def _cards(cards: Sequence[object]) -> dict[str, Card]:
    return {c.uid: c for c in cards if isinstance(c, Card)}


def _placement(view: ChocoView, seat: int, legal: Sequence[ChocoAction]) -> ChocoAction | None:
    hand = _cards(view.sides[seat].hand or ())
    front_wanted = len(view.sides[seat].front) < FRONT_WANTED
    placements = [a for a in legal if isinstance(a, Prepare | Summon) and a.card in hand]
    if not placements:
        return None
    return max(placements, key=lambda a: (_value(hand[a.card]), (a.line == "front") == front_wanted))


def _attack(view: ChocoView, seat: int, legal: Sequence[ChocoAction], done: Sequence[Step]) -> Step | None:
    mine = _cards(view.sides[seat].front)
    enemy = _cards(view.sides[1 - seat].front)
    attacks = [a for a in legal if isinstance(a, Attack) and a.attacker in mine and a.target in enemy]
    if attacks:

        def score(a: Attack) -> tuple[bool, int, int, str, str]:
            target, attacker = enemy[a.target], mine[a.attacker]
            kills = target.pv <= attacker.pa
            worth = target.pa + target.pv if kills else -target.pv
            return (kills, worth, attacker.pa, a.attacker, a.target)

        return max(attacks, key=score)
    if any(isinstance(s, DeckAttack) for s in done):
        return None  # only the free deck attack: a second one sacrifices the attacker
    decks = [a for a in legal if isinstance(a, DeckAttack) and a.attacker in mine]
    return max(decks, key=lambda a: _value(mine[a.attacker])) if decks else None


def decide(view: ChocoView, seat: int, legal: Sequence[ChocoAction], done: Sequence[Step]) -> ChocoAction:
    """The next step of the seat whose `view` this is, among `legal` (never empty while it must act), after
    `done`, the steps it already played this turn."""
    placement = _placement(view, seat, legal)
    if placement is not None:
        return placement
    effects = [a for a in legal if isinstance(a, PlayEffect)]
    if effects and not any(isinstance(s, PlayEffect) for s in done):
        return effects[0]
    reserve = _cards(view.sides[seat].reserve)
    if len(view.sides[seat].front) < FRONT_WANTED:
        forward = [a for a in legal if isinstance(a, Move) and a.line == "front" and a.card in reserve]
        if forward:
            return max(forward, key=lambda a: _value(reserve[a.card]))
    attack = _attack(view, seat, legal, done)
    if attack is not None:
        return attack
    if EndTurn() in legal:
        return EndTurn()
    return legal[0]  # the turn owes something the policy did not foresee: any legal step moves it on


def ai_turn(state: ChocoState, seat: int) -> Prepare | Turn:
    """The AI's answer now, to be applied like a player's: its placement in the preparatory turn, else
    its whole turn (a `Turn`, whose end the engine adds). Each step is legal in turn, and the turn can end
    after them."""
    if seat not in _ENGINE.current_players(state):
        raise IllegalAction("error.illegal_action", reason="not_your_turn")
    steps: list[Step] = []
    for _ in range(STEPS_PER_TURN):  # the rules bound a turn's steps: a guard, never reached
        action = decide(_ENGINE.view(state, seat), seat, _ENGINE.legal_actions(state, seat), steps)
        if isinstance(action, Prepare):
            return action
        if isinstance(action, EndTurn | Turn):  # a `Turn` is never listed: only the end stops here
            break
        steps.append(action)
        state, _ = _ENGINE.apply(state, seat, action)
        if state.finished:
            break
    return Turn(steps=tuple(steps))
