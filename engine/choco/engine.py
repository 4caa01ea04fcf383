"""The Chocobataille engine behind the platform protocol (docs/engine.md, docs/choco/rules-notes.md).

A turn can be played step by step (`Summon`, `PlayEffect`, `Move`, `Attack`, `DeckAttack`, `Discard`,
`EndTurn`: what `legal_actions` lists, exactly) or declared whole as one `Turn`, validated at once: both go
through the same legality predicate (`turn.check`), so they accept exactly the same play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from engine.choco import effects as fx
from engine.choco.catalog import ChocoCatalog, Effect
from engine.choco.effects import end_of_turn, magic_excess, prune
from engine.choco.sample import sample_catalog, sample_deck
from engine.choco.state import (
    DECK_SIZE,
    MAX_COPIES,
    Action,
    Attack,
    Card,
    ChocoState,
    DeckAttack,
    Discard,
    EndTurn,
    Move,
    PlayEffect,
    Prepare,
    Side,
    Summon,
    Turn,
    TurnProgress,
)
from engine.choco.turn import candidates, check, do_step, draw, summons_allowed
from engine.errors import DomainError, IllegalAction
from engine.protocol import CATALOG_OPTION, SPECTATOR, Event, Outcome, PlayerSetup, Setup
from engine.rng import RngState

_ACTION: TypeAdapter[Action] = TypeAdapter(Action)
MAX_TURNS = 200  # a stalemate bound the rules lack (rules-notes.md): the game is then a draw
STEPS_PER_TURN = 45  # 2 summons + 10 moves + 10 attacks + 8 discards + end, with room to spare


def build_side(deck: Sequence[str], catalog: ChocoCatalog, seat: int, rng: random.Random) -> Side:
    """Validate a deck (I: 24 cards, at most two copies) and shuffle it into instances."""
    if len(deck) != DECK_SIZE:
        raise DomainError("error.bad_input", reason="deck_size", size=len(deck))
    if any(n > MAX_COPIES for n in Counter(deck).values()):
        raise DomainError("error.bad_input", reason="deck_copies")
    cards: list[Card] = []
    for i, card_id in enumerate(deck):
        card = catalog.card(card_id)
        if card is None:
            raise DomainError("error.bad_input", reason="unknown_card", card=card_id)
        uid = f"c{seat * DECK_SIZE + i}"
        if card.type == "pure":
            cards.append(Card(uid=uid, card_id=card_id, pa=0, pv=0, max_pv=0, pure=True))
        else:
            assert card.pa is not None and card.pv is not None
            cards.append(
                Card(
                    uid=uid,
                    card_id=card_id,
                    pa=card.pa,
                    pv=card.pv,
                    max_pv=card.pv,
                    base_pa=card.pa,
                    base_pv=card.pv,
                )
            )
    if all(c.pure for c in cards):
        raise DomainError("error.bad_input", reason="no_wizard")
    rng.shuffle(cards)
    # The preparatory hand must hold a wizard to place (IV.1): "Excès de magie" redeals it (rules-notes.md).
    while all(c.pure for c in cards[:5]):
        rng.shuffle(cards)
    return Side(pioche=tuple(cards))


def _effect(catalog: ChocoCatalog, card_id: str) -> Effect | None:
    card = catalog.card(card_id)
    return None if card is None else card.effect


def _reason(why: str) -> str:
    """The outcome's message key `choco.outcome.<why>`, built like the renderers build `choco.event.<kind>`.

    The locale entries are not part of this package (see docs/choco/rules-notes.md, "Messages")."""
    return f"{ChocoEngine.name}.outcome.{why}"


class ChocoEngine:
    name: ClassVar[str] = "choco"
    max_steps: ClassVar[int] = 2 + MAX_TURNS * STEPS_PER_TURN

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> ChocoState:
        """Shuffle both pioches and deal the preparatory hands of five (IV.1)."""
        if sorted(p.seat for p in players) != [0, 1]:
            raise DomainError("error.bad_input", reason="two_players")
        catalog = options.get(CATALOG_OPTION) or sample_catalog()
        ordered = sorted(players, key=lambda p: p.seat)
        rng, rng_state = RngState.from_seed(seed, "choco").advance()
        sides = [build_side(p.deck, catalog, p.seat, rng) for p in ordered]
        dealt = tuple(Side(pioche=s.pioche[5:], hand=s.pioche[:5]) for s in sides)
        effects = {
            c.card_id: e for s in sides for c in s.pioche if (e := _effect(catalog, c.card_id)) is not None
        }
        max_turns = options.get("max_turns", MAX_TURNS)
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS:
            raise DomainError("error.bad_input", reason="max_turns")
        return ChocoState(
            sides=(dealt[0], dealt[1]),
            player_ids=(ordered[0].player_id, ordered[1].player_id),
            rng=rng_state,
            max_turns=max_turns,
            effects=effects,
        )

    def current_players(self, state: ChocoState) -> list[int]:
        if state.finished:
            return []
        if state.turn == 0:
            return [s for s in (0, 1) if state.prepared[s] is None]
        return [state.active]

    def legal_actions(self, state: ChocoState, player: int) -> list[Any]:
        if player not in self.current_players(state):
            return []
        if state.turn == 0:
            hand = state.sides[player].hand
            return [
                Prepare(card=c.uid, line=line) for c in hand if not c.pure for line in ("front", "reserve")
            ]
        legal: list[Any] = []
        for step in candidates(state, player):
            try:
                check(state, player, step)
            except IllegalAction:
                continue
            legal.append(step)
        return legal

    def apply(self, state: ChocoState, player: int, action: Any) -> tuple[ChocoState, list[Event]]:
        if player not in self.current_players(state):
            raise IllegalAction("error.illegal_action", reason="not_your_turn")
        if isinstance(action, Prepare):
            if state.turn != 0 or action not in self.legal_actions(state, player):
                raise IllegalAction("error.illegal_action", reason="cannot_prepare")
            return self._prepare(state, player, action)
        if state.turn == 0:
            raise IllegalAction("error.illegal_action", reason="preparatory_turn")
        if isinstance(action, Turn):
            events: list[Event] = []
            for step in action.steps:
                check(state, player, step)
                state, more = do_step(state, player, step)
                state = self._settle(state)
                events += more
                if state.finished:  # the game ended mid-turn: the remaining steps have nothing to act on
                    return state, events
            check(state, player, EndTurn())
            state, more = self.end_turn(state)
            return state, events + more
        if isinstance(action, Summon | PlayEffect | Move | Attack | DeckAttack | Discard):
            check(state, player, action)
            state, events = do_step(state, player, action)
            return self._settle(state), events
        if isinstance(action, EndTurn):
            check(state, player, action)
            return self.end_turn(state)
        raise IllegalAction("error.illegal_action", reason="unknown_action")

    def _prepare(self, state: ChocoState, seat: int, action: Prepare) -> tuple[ChocoState, list[Event]]:
        """Record a secret first placement; the second one reveals both and draws the first player."""
        side = state.sides[seat]
        card = next(c for c in side.hand if c.uid == action.card)
        hand = tuple(c for c in side.hand if c.uid != action.card)
        placed = side.model_copy(update={"hand": hand, action.line: (card,)})
        sides = (placed, state.sides[1]) if seat == 0 else (state.sides[0], placed)
        prepared = (
            ((action.card, action.line), state.prepared[1])
            if seat == 0
            else (state.prepared[0], (action.card, action.line))
        )
        state = state.model_copy(update={"sides": sides, "prepared": prepared})
        events = [Event("prepared", {"seat": seat})]
        if None in prepared:
            return state, events
        rng, rng_state = state.rng.advance()
        first = rng.randrange(2)
        for s, choice in enumerate(prepared):
            assert choice is not None
            events.append(Event("revealed", {"seat": s, "card": choice[0], "line": choice[1]}))
        events.append(Event("first_player", {"seat": first}))
        state = state.model_copy(update={"rng": rng_state, "turn": 1, "active": first})
        state = state.model_copy(update={"turn": 0})
        for s in (first, 1 - first):  # effect wizards placed secretly trigger at the reveal (rules-notes.md)
            choice = prepared[s]
            assert choice is not None
            shown = next((c for c in state.sides[s].board() if c.uid == choice[0]), None)
            if shown is not None:  # the first player's effect may already have destroyed it
                state, more = fx.placed(state, s, shown)
                events += more
        state = state.model_copy(update={"turn": 1})
        state, more = self._start_turn(state, first)
        return state, events + more

    def _start_turn(self, state: ChocoState, seat: int) -> tuple[ChocoState, list[Event]]:
        side, drawn = draw(state.sides[seat], state.bonus_draws[seat])
        sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
        bonus = (0, state.bonus_draws[1]) if seat == 0 else (state.bonus_draws[0], 0)
        state = state.model_copy(update={"sides": sides, "active": seat, "bonus_draws": bonus})
        progress = TurnProgress(summons_allowed=summons_allowed(state, seat))
        state = state.model_copy(update={"progress": progress})
        cards = [c.uid for c in drawn]
        state, excess = magic_excess(state, seat)
        return state, [
            Event("drew", {"seat": seat, "cards": cards}, visible_to=frozenset({seat})),
            Event("drew_count", {"seat": seat, "count": len(cards)}),
            *excess,
        ]

    def _settle(self, state: ChocoState) -> ChocoState:
        """The game ends as soon as one side has no wizard outside the graveyard (IV.4)."""
        state = prune(state)
        alive = (state.sides[0].alive(), state.sides[1].alive())
        if min(alive) > 0:
            return state
        winner = None if max(alive) == 0 else (0 if alive[0] else 1)
        return state.model_copy(update={"finished": True, "winner": winner})

    def end_turn(self, state: ChocoState) -> tuple[ChocoState, list[Event]]:
        """Close the active turn (also used by the 72 h penalty): expirations and continuous effects, end check,
        turn bound, next draw."""
        events: list[Event] = []
        if not state.finished:
            state, events = end_of_turn(state, state.active)
        state = self._settle(state)
        events.append(Event("turn_ended", {"seat": state.active, "turn": state.turn}))
        if state.finished:
            return state, events
        if state.turn >= state.max_turns:
            return state.model_copy(update={"finished": True, "winner": None}), events
        state = state.model_copy(update={"turn": state.turn + 1})
        state, more = self._start_turn(state, 1 - state.active)
        return state, events + more

    def outcome(self, state: ChocoState) -> Outcome | None:
        if not state.finished:
            return None
        scores = (state.sides[0].alive(), state.sides[1].alive())
        if state.forfeit is not None and state.winner is not None:
            return Outcome(winners=(state.winner,), scores=scores, reason=_reason(f"forfeit_{state.forfeit}"))
        if state.winner is None:
            reason = _reason("turn_limit") if min(scores) > 0 else _reason("both_out")
            return Outcome(draw=True, scores=scores, reason=reason)
        return Outcome(winners=(state.winner,), scores=scores, reason=_reason("all_wizards_lost"))

    def view(self, state: ChocoState, player: int) -> Mapping[str, Any]:
        """Boards, graveyards and counts are public; a hand only to its owner; no pioche card to anyone."""
        sides = []
        for seat, side in enumerate(state.sides):
            entry: dict[str, Any] = {
                "pioche": len(side.pioche),
                "hand_size": len(side.hand),
                "graveyard": [c.model_dump() for c in side.graveyard],
                "front": [c.model_dump() for c in side.front],
                "reserve": [c.model_dump() for c in side.reserve],
            }
            if state.turn == 0 and seat != player:
                entry["front"] = [{"face_down": True} for _ in side.front]
                entry["reserve"] = [{"face_down": True} for _ in side.reserve]
            if seat == player and player != SPECTATOR:
                entry["hand"] = [c.model_dump() for c in side.hand]
            sides.append(entry)
        return {
            "turn": state.turn,
            "active": state.active,
            "finished": state.finished,
            "sides": sides,
            "active_effects": [a.model_dump() for a in state.actives],
            "timed": [t.model_dump() for t in state.timed],
        }

    def hidden_cards(self, state: ChocoState, player: int) -> set[str]:
        """The hand, and during the preparatory turn the secretly placed card."""
        if player not in (0, 1):
            return set()
        side = state.sides[player]
        hidden = {c.uid for c in side.hand}
        if state.turn == 0:
            hidden |= {c.uid for c in side.board()}
        return hidden

    def to_json(self, state: ChocoState) -> str:
        return state.model_dump_json()

    def from_json(self, raw: str) -> ChocoState:
        return ChocoState.model_validate_json(raw)

    def action_to_json(self, action: Any) -> Any:
        return action.model_dump(mode="json")

    def action_from_json(self, raw: Any) -> Any:
        try:
            return _ACTION.validate_python(raw)
        except ValidationError as error:
            raise IllegalAction("error.illegal_action", reason="bad_action") from error

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        """Two seats with legal decks of normal wizards, and a short turn bound so random games stay quick."""
        source = catalog if catalog is not None else sample_catalog()
        players = tuple(PlayerSetup(seat=s, player_id=100 + s, deck=sample_deck(source, rng)) for s in (0, 1))
        options: dict[str, Any] = {"max_turns": rng.choice((4, 6, 10))}
        if catalog is not None:  # the decks come from this catalog, so the game must too
            options[CATALOG_OPTION] = catalog
        return Setup(players=players, options=options)
