"""The Pillz duel engine behind the platform protocol (docs/engine.md, docs/pillz/rules-notes.md).

Two seats, four rounds. Each seat's line-up is four characters drawn at random from its deck; both
line-ups are public. In a round the leading seat plays a `Play` (its character is shown at once, its
pillz stay secret), then the other seat answers knowing the character but not the pillz, and the round
resolves: attack = power x pillz, the winner is drawn with odds attack / (sum of attacks) and deals its
damage. A seat at 0 PV loses at once (KO); after four rounds the higher PV wins, equal PV is a draw.

The leader's pillz are not taken from `state.pillz` until the round resolves: `state.pillz` is always
the count at the start of the round, which is what the opponent may know, and the bet lives only in
`state.pending`. Player extras: none (`PlayerSetup.extra` is ignored).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import ValidationError

from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.pillz.catalog import PillzCatalog
from engine.pillz.rules import (
    applied_effects,
    choose_first,
    draw_winner,
    effect_total,
    first_reason,
    lead_seat,
    leader_effects,
    lost_before,
    matchup,
    stars,
)
from engine.pillz.sample import sample_deck
from engine.pillz.state import (
    HAND_SIZE,
    ROUNDS,
    START_LIFE,
    START_PILLZ,
    Fighter,
    PillzAction,
    PillzState,
    Play,
    RoundRecord,
)
from engine.pillz.view import FighterView, PillzView, bet_token, view_of
from engine.protocol import CATALOG_OPTION, Event, Outcome, PlayerSetup, Setup
from engine.rng import RngState

Hands = tuple[tuple[Fighter, ...], tuple[Fighter, ...]]


class PillzSetupError(DomainError):
    """Every setup `new_game` refuses (seats, decks, a missing catalog); `reason` says which.

    Services check decks before a duel starts, so a player meets it only through a bug: the message stays
    the generic bad-input one."""

    key = "error.bad_input"


def draw_line_up(deck: Sequence[str], catalog: PillzCatalog, rng: random.Random) -> tuple[Fighter, ...]:
    """Validate a deck (at least four distinct known characters) and draw four of them at random."""
    if len(deck) < HAND_SIZE:
        raise PillzSetupError(reason="deck_size", size=len(deck))
    if len(set(deck)) != len(deck):
        raise PillzSetupError(reason="deck_copies")
    fighters = []
    for card_id in deck:
        card = catalog.card(card_id)
        if card is None:
            raise PillzSetupError(reason="unknown_card", card=card_id)
        fighters.append(
            Fighter(
                card_id=card.id,
                stars=card.stars,
                power=card.power,
                damage=card.damage,
                clan=card.clan,
                ability=None if card.ability is None else card.ability.kind,
                value=0 if card.ability is None else card.ability.value,
            )
        )
    return tuple(rng.sample(fighters, HAND_SIZE))


def with_clan_power(hand: tuple[Fighter, ...]) -> tuple[Fighter, ...]:
    """A drawn `clan_power` leader gives +value power to every drawn character of its clan, itself too."""
    bonus: dict[str, int] = {}
    for f in hand:
        if f.ability == "clan_power":
            bonus[f.clan] = bonus.get(f.clan, 0) + f.value
    return tuple(
        f.model_copy(update={"power": f.power + bonus[f.clan]}) if f.clan in bonus else f for f in hand
    )


def _fighter(hand: tuple[Fighter, ...], card_id: str) -> Fighter:
    return next(f for f in hand if f.card_id == card_id)


class PillzEngine:
    name: ClassVar[str] = "pillz"
    setup_error: ClassVar[type[DomainError]] = PillzSetupError
    max_steps: ClassVar[int] = 2 * ROUNDS

    # --- setting up -----------------------------------------------------------------------------------

    def new_game(self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]) -> PillzState:
        if sorted(p.seat for p in players) != [0, 1]:
            raise PillzSetupError(reason="two_players")
        catalog = options.get(CATALOG_OPTION)
        if not isinstance(catalog, PillzCatalog):
            raise PillzSetupError(reason="catalog")
        by_seat = sorted(players, key=lambda p: p.seat)
        rng, rng_state = RngState.from_seed(seed, "pillz").advance()
        drawn = [with_clan_power(draw_line_up(p.deck, catalog, rng)) for p in by_seat]
        hands: Hands = (drawn[0], drawn[1])
        return PillzState(
            player_ids=(by_seat[0].player_id, by_seat[1].player_id),
            hands=hands,
            life=(START_LIFE, START_LIFE),
            max_life=(START_LIFE, START_LIFE),
            pillz=(START_PILLZ, START_PILLZ),
            first=choose_first(hands, rng),
            rng=rng_state,
        )

    def start_events(self, state: PillzState) -> list[Event]:
        """What the table is told when the duel starts: both line-ups (public) and who begins, and why.

        `new_game` returns no events (protocol), so services call this once after creating the game;
        the same facts are in every view (`line_ups`, `first`, `first_reason`).
        """
        events = [
            Event(
                "drawn",
                {
                    "seat": seat,
                    "cards": [FighterView.of(f).to_json() for f in state.hands[seat]],
                    "stars": stars(state.hands[seat]),
                    "life": state.life[seat],
                    "pillz": state.pillz[seat],
                },
            )
            for seat in (0, 1)
        ]
        events.append(
            Event(
                "first_player",
                {
                    "seat": state.first,
                    "reason": first_reason(state.hands),
                    "stars": [stars(state.hands[0]), stars(state.hands[1])],
                },
            )
        )
        return events

    # --- turns ----------------------------------------------------------------------------------------

    def lead(self, state: PillzState) -> int:
        """The seat leading the current round."""
        return lead_seat(state.first, state.round)

    def current_players(self, state: PillzState) -> list[int]:
        if state.finished:
            return []
        leader = self.lead(state)
        return [leader] if state.pending is None else [1 - leader]

    def legal_actions(self, state: PillzState, player: int) -> list[Play]:
        if player not in self.current_players(state):
            return []
        cards = [f.card_id for f in state.hands[player] if not f.used]
        return [Play(card=c, pillz=n) for c in cards for n in range(state.pillz[player] + 1)]

    def is_legal(self, state: PillzState, player: int, action: PillzAction) -> bool:
        """`action in legal_actions(...)` without building the list (the AI's matches call this a lot)."""
        if not isinstance(action, Play) or player not in self.current_players(state):
            return False
        if not 0 <= action.pillz <= state.pillz[player]:
            return False
        return any(f.card_id == action.card and not f.used for f in state.hands[player])

    def apply(self, state: PillzState, player: int, action: PillzAction) -> tuple[PillzState, list[Event]]:
        if not self.is_legal(state, player, action):
            raise IllegalAction("error.illegal_action", reason=self._why(state, player, action))
        if state.pending is None:
            return self._lead(state, player, action)
        return self._resolve(state, player, action)

    def _why(self, state: PillzState, player: int, action: Any) -> str:
        if player not in self.current_players(state):
            return "not_your_turn"
        if not isinstance(action, Play):
            return "unknown_action"
        if not 0 <= action.pillz <= state.pillz[player]:
            return "pillz"
        return "card"

    def _lead(self, state: PillzState, seat: int, play: Play) -> tuple[PillzState, list[Event]]:
        hand = tuple(
            f.model_copy(update={"used": True}) if f.card_id == play.card else f for f in state.hands[seat]
        )
        hands: Hands = (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)
        after = state.model_copy(update={"hands": hands, "pending": (play.card, play.pillz)})
        return after, [
            Event("led", {"seat": seat, "round": state.round, "card": play.card}),
            Event(
                "bet", {"seat": seat, "round": state.round, "pillz": play.pillz}, visible_to=frozenset({seat})
            ),
        ]

    def _resolve(self, state: PillzState, seat: int, play: Play) -> tuple[PillzState, list[Event]]:
        assert state.pending is not None
        leader = 1 - seat
        cards = ["", ""]
        bets = [0, 0]
        cards[leader], bets[leader] = state.pending
        cards[seat], bets[seat] = play.card, play.pillz
        fighters = (_fighter(state.hands[0], cards[0]), _fighter(state.hands[1], cards[1]))
        sides = (matchup(fighters[0], fighters[1]), matchup(fighters[1], fighters[0]))
        attacks = (sides[0].power * bets[0], sides[1].power * bets[1])
        rng, rng_state = state.rng.advance()
        winner = draw_winner(rng, *attacks)
        loser = 1 - winner
        win, lose = sides[winner], sides[loser]
        first_loss = not lost_before(state.history, loser)
        leaders = leader_effects(state.hands[loser], loser, first_loss, win.damage_if_win)
        damage = win.damage_if_win - effect_total(leaders, "blessing")
        life = list(state.life)
        life[loser] = max(0, life[loser] - damage)
        wounded = life[winner]
        life[winner] = min(state.max_life[winner], life[winner] + win.heal_if_win)
        pillz = [state.pillz[0] - bets[0], state.pillz[1] - bets[1]]
        pillz[loser] += lose.refund_if_loss + effect_total(leaders, "war_chest")
        undrained = pillz[loser]
        pillz[loser] = max(0, pillz[loser] - win.drain_if_win)
        hand = tuple(
            f.model_copy(update={"used": True}) if f.card_id == play.card else f for f in state.hands[seat]
        )
        hands: Hands = (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)
        record = RoundRecord(
            round=state.round,
            leader=leader,
            cards=(cards[0], cards[1]),
            pillz=(bets[0], bets[1]),
            attacks=attacks,
            winner=winner,
            damage=damage,
            life=(life[0], life[1]),
            pillz_left=(pillz[0], pillz[1]),
            effects=applied_effects(fighters, winner, life[winner] - wounded, undrained - pillz[loser])
            + leaders,
        )
        update: dict[str, Any] = {
            "hands": hands,
            "life": record.life,
            "pillz": record.pillz_left,
            "pending": None,
            "rng": rng_state,
            "history": (*state.history, record),
        }
        if life[loser] == 0:
            update.update(finished=True, winner=winner, reason="ko")
        elif state.round == ROUNDS:
            decided = life[0] != life[1]
            update.update(
                finished=True,
                winner=(0 if life[0] > life[1] else 1) if decided else None,
                reason="points" if decided else "draw",
            )
        else:
            update["round"] = state.round + 1
        after = state.model_copy(update=update)
        events = [Event("round", record.model_dump(mode="json"))]
        if after.finished:
            events.append(
                Event("ended", {"winner": after.winner, "reason": after.reason, "life": list(life)})
            )
        return after, events

    # --- the end --------------------------------------------------------------------------------------

    def outcome(self, state: PillzState) -> Outcome | None:
        if not state.finished:
            return None
        reason = f"pillz.outcome.{state.reason}"
        if state.winner is None:
            return Outcome(draw=True, scores=state.life, reason=reason)
        return Outcome(winners=(state.winner,), scores=state.life, reason=reason)

    # --- what each seat sees --------------------------------------------------------------------------

    def view(self, state: PillzState, player: int) -> PillzView:
        """Everything is public but the leader's pending pillz (see `view.py`)."""
        return view_of(state, player, self.current_players(state))

    def hidden_cards(self, state: PillzState, player: int) -> set[str]:
        """No card is hidden (line-ups are public); the leader's pending bet is, as a token naming it."""
        if state.pending is None or state.finished or player != self.lead(state):
            return set()
        return {bet_token(state)}

    # --- JSON -----------------------------------------------------------------------------------------

    def to_json(self, state: PillzState) -> str:
        return state.model_dump_json()

    def from_json(self, raw: str) -> PillzState:
        return PillzState.model_validate_json(raw)

    def action_to_json(self, action: PillzAction) -> Any:
        return {"kind": "play", "card": action.card, "pillz": action.pillz}

    def action_from_json(self, raw: Any) -> PillzAction:
        if not isinstance(raw, dict) or set(raw) != {"kind", "card", "pillz"}:
            raise InvalidAction("error.invalid_action", reason="bad_action")
        card, pillz = raw["card"], raw["pillz"]
        if raw["kind"] != "play" or not isinstance(card, str) or not card or len(card) > 64:
            raise InvalidAction("error.invalid_action", reason="bad_action")
        if isinstance(pillz, bool) or not isinstance(pillz, int) or not 0 <= pillz <= 99:
            raise InvalidAction("error.invalid_action", reason="bad_action")
        try:
            return Play(card=card, pillz=pillz)
        except ValidationError as error:  # pragma: no cover - the checks above already cover the fields
            raise InvalidAction("error.invalid_action", reason="bad_action") from error

    # --- tests, benchmarks, sandbox -------------------------------------------------------------------

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        if not isinstance(catalog, PillzCatalog):
            raise PillzSetupError(reason="catalog")
        players = tuple(PlayerSetup(seat=s, player_id=s + 1, deck=sample_deck(catalog, rng)) for s in (0, 1))
        return Setup(players=players, options={CATALOG_OPTION: catalog})
