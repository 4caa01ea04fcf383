"""What one seat (or the table) may see of a duel, as typed frozen models that renderers read by attribute.

Everything is public but the leader's pending pillz: line-ups, PV, past rounds, the pending card.
`pillz` is each seat's count at the start of the round (the bet is not taken yet), so neither the count
nor a subtraction betrays the bet; the leader also gets `bet`, its `bet_token` and `pillz_available`.
"""

from __future__ import annotations

from engine.pillz.rules import first_reason, lead_seat, stars
from engine.pillz.state import ROUNDS, Fighter, PillzState, RoundRecord
from engine.protocol import GameView


class FighterView(GameView):
    """A drawn character as players see it (also the `drawn` event's card data)."""

    card: str
    stars: int
    power: int
    damage: int
    clan: str
    ability: str | None
    value: int
    used: bool

    @staticmethod
    def of(f: Fighter) -> FighterView:
        return FighterView(
            card=f.card_id,
            stars=f.stars,
            power=f.power,
            damage=f.damage,
            clan=f.clan,
            ability=f.ability,
            value=f.value,
            used=f.used,
        )


class PillzView(GameView):
    seat: int
    player_ids: tuple[int, int]
    line_ups: tuple[tuple[FighterView, ...], tuple[FighterView, ...]]
    stars: tuple[int, int]
    life: tuple[int, int]
    max_life: tuple[int, int]
    pillz: tuple[int, int]
    first: int
    first_reason: str
    round: int
    rounds: int
    lead: int
    to_act: tuple[int, ...]
    pending_card: str | None
    history: tuple[RoundRecord, ...]
    finished: bool
    winner: int | None
    reason: str | None  # the outcome's message key, "pillz.outcome.<why>", once finished
    bet: int | None = None  # the leader's own pending bet, in its view only
    bet_token: str | None = None
    pillz_available: int | None = None  # a seat's own pillz left after its pending bet


def bet_token(state: PillzState) -> str:
    """The identifier of the leader's pending bet for the hidden-information check (docs/engine.md)."""
    assert state.pending is not None
    return f"pillz-bet-r{state.round}-{state.pending[1]}"


def view_of(state: PillzState, player: int, to_act: list[int]) -> PillzView:
    leader = lead_seat(state.first, state.round)
    line_ups = tuple(tuple(FighterView.of(f) for f in hand) for hand in state.hands)
    bet: int | None = None
    token: str | None = None
    available: int | None = None
    if player in (0, 1):
        available = state.pillz[player]
        if state.pending is not None and player == leader:
            bet, token = state.pending[1], bet_token(state)
            available -= bet
    return PillzView(
        seat=player,
        player_ids=state.player_ids,
        line_ups=(line_ups[0], line_ups[1]),
        stars=(stars(state.hands[0]), stars(state.hands[1])),
        life=state.life,
        max_life=state.max_life,
        pillz=state.pillz,
        first=state.first,
        first_reason=first_reason(state.hands),
        round=state.round,
        rounds=ROUNDS,
        lead=leader,
        to_act=tuple(to_act),
        pending_card=None if state.pending is None else state.pending[0],
        history=state.history,
        finished=state.finished,
        winner=state.winner,
        reason=None if state.reason is None else f"pillz.outcome.{state.reason}",
        bet=bet,
        bet_token=token,
        pillz_available=available,
    )
