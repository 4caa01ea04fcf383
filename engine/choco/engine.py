"""The Chocobataille engine behind the platform protocol (docs/engine.md, docs/choco/rules-notes.md).

A turn can be played step by step (`Summon`, `PlayEffect`, `Move`, `Attack`, `DeckAttack`, `Discard`,
`EndTurn`: what `legal_actions` lists, exactly) or declared whole as one `Turn`, validated at once: both go
through the same legality predicate (`turn.check`), so they accept exactly the same play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import Field, TypeAdapter, ValidationError

from engine.choco.catalog import ChocoCatalog, Effect
from engine.choco.cycle import end_turn, prepare, settle
from engine.choco.sample import sample_deck
from engine.choco.state import (
    DECK_SIZE,
    MAX_COPIES,
    Attack,
    Card,
    ChocoAction,
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
)
from engine.choco.state_json import state_json
from engine.choco.turn import check, do_step, legal_steps, listed
from engine.choco.view import ChocoView, view_of
from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, Event, Outcome, PlayerSetup, Setup
from engine.rng import RngState

# Tagged by `kind`, which stored actions always carry: data without one is no action (not an `EndTurn`).
_ACTION: TypeAdapter[ChocoAction] = TypeAdapter(Annotated[ChocoAction, Field(discriminator="kind")])
MAX_TURNS = 200  # a stalemate bound the rules lack (rules-notes.md): the game is then a draw
STEPS_PER_TURN = 45  # 2 summons + 10 moves + 10 attacks + 8 discards + end, with room to spare


class ChocoSetupError(DomainError):
    """Every setup `new_game` refuses (seats, decks, options, a missing catalog); `reason` says which.

    Services check decks before they start a game, so a player meets it only through a bug: the message
    stays the generic bad-input one."""

    key = "error.bad_input"


def build_side(deck: Sequence[str], catalog: ChocoCatalog, seat: int, rng: random.Random) -> Side:
    """Validate a deck (I: 24 cards, at most two copies) and shuffle it into instances."""
    if len(deck) != DECK_SIZE:
        raise ChocoSetupError(reason="deck_size", size=len(deck))
    if any(n > MAX_COPIES for n in Counter(deck).values()):
        raise ChocoSetupError(reason="deck_copies")
    cards: list[Card] = []
    for i, card_id in enumerate(deck):
        card = catalog.card(card_id)
        if card is None:
            raise ChocoSetupError(reason="unknown_card", card=card_id)
        uid = f"c{seat * DECK_SIZE + i}"
        if card.type == "pure":
            cards.append(Card(uid=uid, card_id=card_id, pa=0, pv=0, max_pv=0, pure=True))
        else:
            assert card.pa is not None
            assert card.pv is not None
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
        raise ChocoSetupError(reason="no_wizard")
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
    setup_error: ClassVar[type[DomainError]] = ChocoSetupError
    max_steps: ClassVar[int] = 2 + MAX_TURNS * STEPS_PER_TURN

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> ChocoState:
        """Shuffle both pioches and deal the preparatory hands of five (IV.1)."""
        if sorted(p.seat for p in players) != [0, 1]:
            raise ChocoSetupError(reason="two_players")
        catalog = options.get(CATALOG_OPTION)
        if not isinstance(catalog, ChocoCatalog):
            raise ChocoSetupError(reason="catalog")
        ordered = sorted(players, key=lambda p: p.seat)
        rng, rng_state = RngState.from_seed(seed, "choco").advance()
        sides = [build_side(p.deck, catalog, p.seat, rng) for p in ordered]
        dealt = tuple(Side(pioche=s.pioche[5:], hand=s.pioche[:5]) for s in sides)
        effects = {
            c.card_id: e for s in sides for c in s.pioche if (e := _effect(catalog, c.card_id)) is not None
        }
        max_turns = options.get("max_turns", MAX_TURNS)
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS:
            raise ChocoSetupError(reason="max_turns")
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

    def legal_actions(self, state: ChocoState, player: int) -> list[ChocoAction]:
        if player not in self.current_players(state):
            return []
        if state.turn == 0:
            hand = state.sides[player].hand
            return [
                Prepare(card=c.uid, line=line) for c in hand if not c.pure for line in ("front", "reserve")
            ]
        return list(legal_steps(state, player))

    def is_legal(self, state: ChocoState, player: int, action: ChocoAction) -> bool:
        """A whole `Turn` is never listed by `legal_actions`: it is legal when `apply` would accept it. A
        step is legal when `legal_actions` lists it, found without building the whole list (`listed`)."""
        if isinstance(action, Turn):
            try:
                self.apply(state, player, action)
            except IllegalAction:
                return False
            return True
        if isinstance(action, Prepare):
            return action in self.legal_actions(state, player)
        return listed(state, player, action)

    def apply(self, state: ChocoState, player: int, action: ChocoAction) -> tuple[ChocoState, list[Event]]:
        if player not in self.current_players(state):
            raise IllegalAction("error.illegal_action", reason="not_your_turn")
        if isinstance(action, Prepare):
            if state.turn != 0 or action not in self.legal_actions(state, player):
                raise IllegalAction("error.illegal_action", reason="cannot_prepare")
            return prepare(state, player, action)
        if state.turn == 0:
            raise IllegalAction("error.illegal_action", reason="preparatory_turn")
        if isinstance(action, Turn):
            events: list[Event] = []
            for step in action.steps:
                check(state, player, step)
                state, more = do_step(state, player, step)
                state = settle(state)
                events += more
                if state.finished:  # the game ended mid-turn: the remaining steps have nothing to act on
                    return state, events
            check(state, player, EndTurn())
            state, more = end_turn(state)
            return state, events + more
        if isinstance(action, Summon | PlayEffect | Move | Attack | DeckAttack | Discard):
            check(state, player, action)
            state, events = do_step(state, player, action)
            return settle(state), events
        if isinstance(action, EndTurn):
            check(state, player, action)
            return end_turn(state)
        raise IllegalAction("error.illegal_action", reason="unknown_action")

    def end_turn(self, state: ChocoState) -> tuple[ChocoState, list[Event]]:
        """Close the active turn as the 72 h penalty does (tests drive turns with it)."""
        return end_turn(state)

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

    def view(self, state: ChocoState, player: int) -> ChocoView:
        """Boards, graveyards and counts are public; a hand only to its owner; no pioche card to anyone."""
        return view_of(state, player)

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
        return state_json(state)

    def from_json(self, raw: str) -> ChocoState:
        return ChocoState.model_validate_json(raw)

    def action_to_json(self, action: ChocoAction) -> Any:
        return action.model_dump(mode="json")

    def action_from_json(self, raw: Any) -> ChocoAction:
        try:
            return _ACTION.validate_python(raw)
        except ValidationError as error:
            raise InvalidAction("error.invalid_action", reason="bad_action") from error

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        """Two seats with legal decks of normal wizards, and a short turn bound so random games stay quick."""
        if not isinstance(catalog, ChocoCatalog):
            raise ChocoSetupError(reason="catalog")
        players = tuple(
            PlayerSetup(seat=s, player_id=100 + s, deck=sample_deck(catalog, rng)) for s in (0, 1)
        )
        return Setup(players=players, options={"max_turns": rng.choice((4, 6, 10)), CATALOG_OPTION: catalog})
