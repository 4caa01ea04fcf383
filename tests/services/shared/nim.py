"""A test-only two-seat engine behind `engine.protocol.Engine`, so the shared match block is tested without
any real game: a pile of stones, each seat in turn takes 1 to 3, whoever takes the last one wins."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.protocol import Event, GameState, GameView, Outcome, PlayerSetup, Setup


class NimState(GameState):
    pile: int
    to_move: int
    winner: int | None = None


class NimView(GameView):
    pile: int
    to_move: int
    winner: int | None = None


@dataclass(frozen=True)
class Take:
    stones: int


class NimSetupError(DomainError):
    key = "error.bad_input"


class Nim:
    name: ClassVar[str] = "nim"
    max_steps: ClassVar[int] = 100
    setup_error: ClassVar[type[DomainError]] = NimSetupError

    def is_legal(self, state: NimState, player: int, action: Take) -> bool:
        return action in self.legal_actions(state, player)

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> NimState:
        return NimState(pile=int(options.get("pile", 21)), to_move=seed % 2)

    def current_players(self, state: NimState) -> list[int]:
        return [] if state.winner is not None else [state.to_move]

    def legal_actions(self, state: NimState, player: int) -> list[Take]:
        if player not in self.current_players(state):
            return []
        return [Take(n) for n in range(1, min(3, state.pile) + 1)]

    def apply(self, state: NimState, player: int, action: Take) -> tuple[NimState, list[Event]]:
        if action not in self.legal_actions(state, player):
            raise IllegalAction(reason="take")
        pile = state.pile - action.stones
        after = NimState(pile=pile, to_move=1 - player, winner=player if pile == 0 else None)
        return after, [Event("took", {"seat": player, "stones": action.stones, "left": pile})]

    def outcome(self, state: NimState) -> Outcome | None:
        return None if state.winner is None else Outcome(winners=(state.winner,), reason="nim.outcome.last")

    def view(self, state: NimState, player: int) -> NimView:
        return NimView(pile=state.pile, to_move=state.to_move, winner=state.winner)

    def hidden_cards(self, state: NimState, player: int) -> set[str]:
        return set()

    def to_json(self, state: NimState) -> str:
        return state.model_dump_json()

    def from_json(self, raw: str) -> NimState:
        return NimState.model_validate_json(raw)

    def action_to_json(self, action: Take) -> Any:
        return {"take": action.stones}

    def action_from_json(self, raw: Any) -> Take:
        if not isinstance(raw, dict) or not isinstance(raw.get("take"), int):
            raise InvalidAction(reason="data")
        return Take(raw["take"])

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        return Setup((PlayerSetup(0, 1), PlayerSetup(1, 2)))
