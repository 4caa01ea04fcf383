"""HOSS behind the platform's engine protocol (docs/engine.md).

Two seats. The legal actions are the pending decisions of a pause (`actions.py`); both seats decide
secretly and in any order, and the last answer makes the battle run (in `apply`) until the next pause or
the end. Each round run comes back as one public `round` event carrying its log record; a card drawn is
a private `drew` event. Hands are the hidden cards (instance ids "a1".."b6").

`options[CATALOG_OPTION]` must hold the loaded `HossCatalog` (the cards both decks use are copied into
the state); `options["move_pauses"]` (bool, default False) makes a possible Défenseur move pause the
battle by itself (see flow.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.errors import DomainError, IllegalAction
from engine.hoss import actions
from engine.hoss.actions import HossAction, answer_of
from engine.hoss.battle import Battle
from engine.hoss.catalog import HossCatalog
from engine.hoss.convert import from_state, to_state
from engine.hoss.deck import HossSetupError, deck_cards, parse_setup
from engine.hoss.rules import MAX_ROUNDS
from engine.hoss.sample import random_setup
from engine.hoss.state import CardSpec, DeckSpec, HossState
from engine.hoss.view import HossView, view_of
from engine.protocol import CATALOG_OPTION, Event, Outcome, PlayerSetup, Setup

SEATS = (0, 1)
# Per pause and seat: up to 6 path choices, 2 placements, 2 moves and the closing play or pass.
STEPS_PER_PAUSE = 2 * (6 + 2 + 2 + 1)


MOVE_PAUSES_OPTION = "move_pauses"


def new_battle(
    players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any], *, log: bool = False
) -> Battle:
    """Validate the table and both setups, and deal: the battle at its first pause."""
    catalog = options.get(CATALOG_OPTION)
    if not isinstance(catalog, HossCatalog):
        raise HossSetupError("hoss.error.setup.catalog")
    move_pauses = options.get(MOVE_PAUSES_OPTION, False)
    if not isinstance(move_pauses, bool):
        raise HossSetupError("hoss.error.setup.option", option=MOVE_PAUSES_OPTION)
    if sorted(p.seat for p in players) != list(SEATS):
        raise HossSetupError("hoss.error.setup.seats")
    by_seat = sorted(players, key=lambda p: p.seat)
    decks = [parse_setup(p, catalog) for p in by_seat]
    return start_parsed(decks, catalog, seed, {}, log=log, move_pauses=move_pauses)


def start_parsed(
    decks: Sequence[DeckSpec],
    catalog: HossCatalog,
    seed: int,
    specs: dict[str, CardSpec],
    *,
    log: bool = False,
    move_pauses: bool = False,
) -> Battle:
    """`new_battle`'s deal once both decks are validated (`parse_setup`, in seat order). `specs` keeps
    the catalog's cards as battles read them, converted once for many battles of one catalog (the lab)."""
    cards = {card.id: card for card in deck_cards(decks, catalog, specs)}
    return Battle.start(decks, cards, seed, log=log, move_pauses=move_pauses)


def battle_events(battle: Battle, records: list[dict[str, Any]]) -> list[Event]:
    events: list[Event] = []
    draws = battle.draws
    for record in records:
        events.append(Event("round", record))
        for after, seat, uid in draws:
            if after == record["round"]:
                card = battle.sides[seat].line(uid).r1.card
                events.append(
                    Event("drew", {"seat": seat, "card": uid, "line_card": card}, frozenset({seat}))
                )
    if battle.over:
        data = {"winners": list(battle.winners), "reason": battle.reason, "scores": list(battle.scores)}
        events.append(Event("end", data))
    else:
        events.append(Event("pause", {"round": battle.round + 1, "waiting": battle.waiting()}))
    return events


class HossEngine:
    name: ClassVar[str] = "hoss"
    setup_error: ClassVar[type[DomainError]] = HossSetupError
    max_steps: ClassVar[int] = MAX_ROUNDS * STEPS_PER_PAUSE

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> HossState:
        return to_state(new_battle(players, seed, options))

    def current_players(self, state: HossState) -> list[int]:
        return [seat for seat in SEATS if self.legal_actions(state, seat)]

    def legal_actions(self, state: HossState, player: int) -> list[HossAction]:
        if state.finished or player not in SEATS:
            return []
        seat = state.seats[player]
        return actions.legal(seat.steps, seat.answers)

    def is_legal(self, state: HossState, player: int, action: HossAction) -> bool:
        return action in self.legal_actions(state, player)

    def apply(self, state: HossState, player: int, action: HossAction) -> tuple[HossState, list[Event]]:
        if not self.is_legal(state, player, action):
            raise IllegalAction("error.illegal_action", action=self.action_to_json(action))
        seat = state.seats[player]
        updated = seat.model_copy(update={"answers": (*seat.answers, answer_of(action))})
        seats = (updated, state.seats[1]) if player == 0 else (state.seats[0], updated)
        state = state.model_copy(update={"seats": seats})
        events = [Event("answered", {"seat": player})]
        if self.current_players(state):
            return state, events
        battle = from_state(state, log=True)
        records = battle.resume()
        return to_state(battle), events + battle_events(battle, records)

    def outcome(self, state: HossState) -> Outcome | None:
        if not state.finished:
            return None
        if not state.winners:
            return Outcome(draw=True, scores=state.scores, reason=state.reason)
        return Outcome(winners=state.winners, scores=state.scores, reason=state.reason)

    def view(self, state: HossState, player: int) -> HossView:
        """Both sides in public; a seat's own hand, lines, legal actions and answers (see `view.py`)."""
        return view_of(state, tuple(from_state(state, refresh=True).sides), player)

    def hidden_cards(self, state: HossState, player: int) -> set[str]:
        if player not in SEATS:
            return set()
        return set(state.seats[player].hand)

    def to_json(self, state: HossState) -> str:
        return state.model_dump_json()

    def from_json(self, raw: str) -> HossState:
        return HossState.model_validate_json(raw)

    def action_to_json(self, action: HossAction) -> Any:
        return actions.to_json(action)

    def action_from_json(self, raw: Any) -> HossAction:
        return actions.from_json(raw)

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        """Random valid decks from `catalog`."""
        if not isinstance(catalog, HossCatalog):
            raise HossSetupError("hoss.error.setup.catalog")
        players = tuple(random_setup(rng, catalog, seat) for seat in SEATS)
        return Setup(
            players=players, options={CATALOG_OPTION: catalog, MOVE_PAUSES_OPTION: rng.random() < 0.3}
        )
