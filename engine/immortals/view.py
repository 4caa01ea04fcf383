"""What one seat (or the table) may see of a duel, as typed frozen models renderers read by attribute.

Public: the terrain, who engages and why, both line-ups of units, vitality, past fights (with the spells
cast in them), and whether each seat has chosen this round. Private to a seat: the spells it drew and
not cast yet (instance ids and catalog ids; the other seat sees only how many are left) and its own
pending choice. Nothing in another seat's view depends on a pending choice.
"""

from __future__ import annotations

from engine.immortals.state import (
    ROUNDS,
    Choose,
    FightRecord,
    ImmortalsState,
    SpellCard,
    Unit,
    cast,
    spells_left,
)
from engine.protocol import GameView


class SpellView(GameView):
    sid: str
    spell_id: str
    used: bool

    @staticmethod
    def of(spell: SpellCard, used: bool) -> SpellView:
        return SpellView(sid=spell.sid, spell_id=spell.spell_id, used=used)


class ImmortalsView(GameView):
    seat: int
    player_ids: tuple[int, int]
    terrain: str
    engager: int
    engage_totals: tuple[int, int]
    units: tuple[tuple[Unit, ...], tuple[Unit, ...]]
    fought: tuple[tuple[str, ...], tuple[str, ...]]  # units that have fought, by seat, in fighting order
    spells_left: tuple[int, int]  # spells not cast yet, by seat
    vitality: tuple[int, int]
    round: int
    rounds: int
    to_act: tuple[int, ...]
    chosen: tuple[bool, bool]  # which seats have chosen this round (not what)
    history: tuple[FightRecord, ...]
    finished: bool
    winner: int | None
    reason: str | None  # the outcome's message key, "immortals.outcome.<why>", once finished
    spells: tuple[SpellView, ...] = ()  # the viewer's own drawn spells
    choice: Choose | None = None  # the viewer's own pending choice
    choice_token: str | None = None


def choice_token(state: ImmortalsState, seat: int) -> str:
    """The identifier of `seat`'s pending choice for the hidden-information check (docs/engine.md)."""
    choice = state.pending[seat]
    assert choice is not None
    return f"immortals-choice-r{state.round}-s{seat}-{choice.unit}-{choice.spell}"


def view_of(state: ImmortalsState, player: int, to_act: list[int]) -> ImmortalsView:
    own = player in (0, 1)
    choice = state.pending[player] if own else None
    return ImmortalsView(
        seat=player,
        player_ids=state.player_ids,
        terrain=state.terrain,
        engager=state.engager,
        engage_totals=state.engage_totals,
        units=state.units,
        fought=(
            tuple(r.fighters[0].uid for r in state.history),
            tuple(r.fighters[1].uid for r in state.history),
        ),
        spells_left=(len(spells_left(state, 0)), len(spells_left(state, 1))),
        vitality=state.vitality,
        round=state.round,
        rounds=ROUNDS,
        to_act=tuple(to_act),
        chosen=(state.pending[0] is not None, state.pending[1] is not None),
        history=state.history,
        finished=state.finished,
        winner=state.winner,
        reason=None if state.reason is None else f"immortals.outcome.{state.reason}",
        spells=tuple(SpellView.of(s, s.sid in cast(state, player)) for s in state.spells[player])
        if own
        else (),
        choice=choice,
        choice_token=None if choice is None else choice_token(state, player),
    )
