"""A tiny but complete engine, for tests only: it exercises every part of the protocol the real games use
(hidden hands, chance at start and during play, alternating turns, then one simultaneous secret choice),
so the conformance test is proven on a game we fully understand. Never registered in production.

Rules of "Toy High Card" (two players):
1. The deck holds the catalog's cards (c1..c12, value = the number), shuffled from the seed; each player
   gets 3, seat 0 first; chance picks who begins.
2. Then `turns` turns (option, 0..20, default 6) alternate. The active player either plays a card from
   their hand (its value is added to their total, it becomes public, they draw the top card of the deck
   if any) or passes (they draw a card from a random position of the deck if any, and their hand holds
   fewer than 5 cards).
3. Then the duel: both players at once secretly choose a card of their hand (or pass). When both have
   chosen, the cards are revealed and added to the totals; the higher card scores 3 more (a card
   beats a pass; no bonus on a tie).
4. The higher total wins; equal totals are a draw.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, SPECTATOR, Event, GameState, GameView, Outcome, PlayerSetup, Setup
from engine.rng import RngState

DECK = tuple(f"c{n}" for n in range(1, 13))
HAND_SIZE = 3
MAX_HAND = 5
MAX_TURNS = 20
DUEL_BONUS = 3
SEATS = (0, 1)


def value(card: str) -> int:
    return int(card[1:])


@dataclass(frozen=True)
class Play:
    card: str


@dataclass(frozen=True)
class Pass:
    pass


ToyAction: TypeAlias = Play | Pass
Pair = tuple[int, int]


class ToySetupError(DomainError):
    """Every setup the toy game refuses."""

    key = "toy.error.setup"


class ToyCatalog(GameState):
    """The toy's card list: a catalog is required, as in every real game."""

    cards: tuple[str, ...] = DECK


TOY_CATALOG = ToyCatalog()


class ToySeat(GameView):
    player_id: int
    total: int
    played: tuple[str, ...]
    hand: tuple[str, ...] | None  # only in its owner's view
    hand_size: int
    committed: bool
    choice: str | None  # only in its owner's view


class ToyView(GameView):
    you: int | None
    phase: str
    turn: int
    turns: int
    active: int | None
    deck_size: int
    seats: tuple[ToySeat, ...]


class ToyState(GameState):
    rng: RngState
    player_ids: Pair
    turns: int
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    played: tuple[tuple[str, ...], tuple[str, ...]]
    totals: Pair
    turn: int = 0
    active: int = 0
    phase: Literal["turns", "duel", "over"] = "turns"
    finished: bool = False
    committed: tuple[bool, bool] = (False, False)
    choices: tuple[str | None, str | None] = (None, None)


def _set(pair: tuple[Any, Any], seat: int, item: Any) -> tuple[Any, Any]:
    return (item, pair[1]) if seat == 0 else (pair[0], item)


class ToyEngine:
    name: ClassVar[str] = "toy"
    setup_error: ClassVar[type[DomainError]] = ToySetupError
    max_steps: ClassVar[int] = MAX_TURNS + 2

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> ToyState:
        if sorted(p.seat for p in players) != list(SEATS):
            raise ToySetupError("toy.error.two_players")
        turns = options.get("turns", 6)
        if not isinstance(turns, int) or not 0 <= turns <= MAX_TURNS:
            raise ToySetupError("toy.error.turns", max=MAX_TURNS)
        catalog = options.get(CATALOG_OPTION)
        if not isinstance(catalog, ToyCatalog):
            raise ToySetupError("toy.error.catalog")
        rng_state = RngState.from_seed(seed, "toy")
        rng, rng_state = rng_state.advance()
        deck = list(catalog.cards)
        rng.shuffle(deck)
        by_seat = sorted(players, key=lambda p: p.seat)
        return ToyState(
            rng=rng_state,
            player_ids=(by_seat[0].player_id, by_seat[1].player_id),
            turns=turns,
            deck=tuple(deck[2 * HAND_SIZE :]),
            hands=(tuple(deck[:HAND_SIZE]), tuple(deck[HAND_SIZE : 2 * HAND_SIZE])),
            played=((), ()),
            totals=(0, 0),
            active=rng.choice(SEATS),
            phase="turns" if turns else "duel",
        )

    def current_players(self, state: ToyState) -> list[int]:
        if state.phase == "turns":
            return [state.active]
        if state.phase == "duel":
            return [seat for seat in SEATS if not state.committed[seat]]
        return []

    def legal_actions(self, state: ToyState, player: int) -> list[ToyAction]:
        if player not in self.current_players(state):
            return []
        return [*(Play(card) for card in sorted(state.hands[player], key=value)), Pass()]

    def is_legal(self, state: ToyState, player: int, action: ToyAction) -> bool:
        return action in self.legal_actions(state, player)

    def apply(self, state: ToyState, player: int, action: ToyAction) -> tuple[ToyState, list[Event]]:
        if not self.is_legal(state, player, action):
            raise IllegalAction("error.illegal_action", action=self.action_to_json(action))
        if state.phase == "turns":
            return self._take_turn(state, player, action)
        return self._choose(state, player, action)

    def _take_turn(self, state: ToyState, seat: int, action: ToyAction) -> tuple[ToyState, list[Event]]:
        hand, deck, rng_state = list(state.hands[seat]), list(state.deck), state.rng
        events: list[Event] = []
        totals, played = state.totals, state.played
        if isinstance(action, Play):
            hand.remove(action.card)
            totals = _set(totals, seat, totals[seat] + value(action.card))
            played = _set(played, seat, (*played[seat], action.card))
            events.append(Event("played", {"seat": seat, "card": action.card, "total": totals[seat]}))
            drawn = deck.pop(0) if deck else None
        else:
            events.append(Event("passed", {"seat": seat}))
            drawn = None
            if deck and len(hand) < MAX_HAND:
                rng, rng_state = rng_state.advance()
                drawn = deck.pop(rng.randrange(len(deck)))
        if drawn is not None:
            hand.append(drawn)
            events.append(Event("drew", {"seat": seat, "card": drawn}, visible_to=frozenset({seat})))
        turn = state.turn + 1
        new = state.model_copy(
            update={
                "rng": rng_state,
                "deck": tuple(deck),
                "hands": _set(state.hands, seat, tuple(hand)),
                "played": played,
                "totals": totals,
                "turn": turn,
                "active": 1 - seat,
                "phase": "turns" if turn < state.turns else "duel",
            }
        )
        return new, events

    def _choose(self, state: ToyState, seat: int, action: ToyAction) -> tuple[ToyState, list[Event]]:
        hand = state.hands[seat]
        choice = None
        if isinstance(action, Play):
            choice = action.card
            hand = tuple(card for card in hand if card != choice)
        state = state.model_copy(
            update={
                "hands": _set(state.hands, seat, hand),
                "committed": _set(state.committed, seat, True),
                "choices": _set(state.choices, seat, choice),
            }
        )
        events = [Event("committed", {"seat": seat})]
        if not all(state.committed):
            return state, events
        values = [value(c) if c is not None else 0 for c in state.choices]
        totals = [state.totals[s] + values[s] for s in SEATS]
        bonus_to = None if values[0] == values[1] else (0 if values[0] > values[1] else 1)
        if bonus_to is not None:
            totals[bonus_to] += DUEL_BONUS
        played = tuple((*state.played[s], c) if (c := state.choices[s]) else state.played[s] for s in SEATS)
        events.append(
            Event("revealed", {"cards": list(state.choices), "bonus_to": bonus_to, "totals": totals})
        )
        final = state.model_copy(
            update={
                "totals": (totals[0], totals[1]),
                "played": played,
                "choices": (None, None),
                "phase": "over",
                "finished": True,
            }
        )
        return final, events

    def outcome(self, state: ToyState) -> Outcome | None:
        if not state.finished:
            return None
        a, b = state.totals
        if a == b:
            return Outcome(draw=True, scores=state.totals, reason="toy.outcome.points")
        return Outcome(winners=(0 if a > b else 1,), scores=state.totals, reason="toy.outcome.points")

    def view(self, state: ToyState, player: int) -> ToyView:
        seats = tuple(
            ToySeat(
                player_id=state.player_ids[seat],
                total=state.totals[seat],
                played=state.played[seat],
                hand=state.hands[seat] if seat == player else None,
                hand_size=len(state.hands[seat]),
                committed=state.committed[seat],
                choice=state.choices[seat] if seat == player else None,
            )
            for seat in SEATS
        )
        return ToyView(
            you=None if player == SPECTATOR else player,
            phase=state.phase,
            turn=state.turn,
            turns=state.turns,
            active=state.active if state.phase == "turns" else None,
            deck_size=len(state.deck),
            seats=seats,
        )

    def hidden_cards(self, state: ToyState, player: int) -> set[str]:
        if player not in SEATS:
            return set()
        choice = state.choices[player]
        return set(state.hands[player]) | ({choice} if choice else set())

    def to_json(self, state: ToyState) -> str:
        return state.model_dump_json()

    def from_json(self, raw: str) -> ToyState:
        return ToyState.model_validate_json(raw)

    def action_to_json(self, action: ToyAction) -> Any:
        return {"kind": "play", "card": action.card} if isinstance(action, Play) else {"kind": "pass"}

    def action_from_json(self, raw: Any) -> ToyAction:
        if isinstance(raw, Mapping):
            if raw.get("kind") == "pass" and len(raw) == 1:
                return Pass()
            card = raw.get("card")
            if raw.get("kind") == "play" and len(raw) == 2 and isinstance(card, str) and card in DECK:
                return Play(card)
        raise InvalidAction("error.invalid_action", action=json.dumps(raw, default=repr)[:100])

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        if not isinstance(catalog, ToyCatalog):
            raise ToySetupError("toy.error.catalog")
        players = tuple(PlayerSetup(seat=seat, player_id=rng.randrange(1, 10**18)) for seat in SEATS)
        return Setup(
            players=players,
            options={"turns": rng.choice((0, 1, 2, 6, 9, MAX_TURNS)), CATALOG_OPTION: catalog},
        )
