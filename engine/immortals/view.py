"""What one seat (or the table) may see of a duel, as typed frozen models renderers read by attribute.

Public: the terrain, who engages and why, both line-ups of units, vitality, past fights (with the spells
cast in them), whose turn it is, and the engaging seat's choice of the round once made (its unit and
spell: the counter chooses knowing them). Private to a seat: the spells it drew and not cast yet
(instance ids and catalog ids; the other seat sees only how many are left) and its own pending choice.
Nothing in another seat's view depends on a secret pending choice (a counter chosen before the engaging
seat, only in a duel stored when both seats chose at once).
"""

from __future__ import annotations

from engine.immortals.rules import EngageRule, engage_rule
from engine.immortals.state import (
    ROUNDS,
    Choose,
    FightRecord,
    ImmortalsState,
    SpellCard,
    Unit,
    cast,
    engaged,
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


class EngagedView(GameView):
    """The engaging seat's choice of the round, public while it waits for the counter."""

    seat: int
    unit: str  # the unit's instance id, in `units[seat]`
    spell: SpellView | None


class ImmortalsView(GameView):
    seat: int
    player_ids: tuple[int, int]
    terrain: str
    engager: int
    engage_totals: tuple[int, int]  # the drawn units' total Attack, by seat
    engage_by: EngageRule  # what decided who engages: Attack, else Defense, else a draw of lots
    engage_defense: tuple[int, int]  # the drawn units' total Defense, by seat
    units: tuple[tuple[Unit, ...], tuple[Unit, ...]]
    fought: tuple[tuple[str, ...], tuple[str, ...]]  # units that have fought, by seat, in fighting order
    spells_left: tuple[int, int]  # spells not cast yet, by seat
    vitality: tuple[int, int]
    round: int
    rounds: int
    to_act: tuple[int, ...]
    chosen: tuple[bool, bool]  # which seats have chosen this round (what: `engaged`, when public)
    engaged: EngagedView | None  # the engaging seat's choice, waiting for the counter
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


def _engaged(state: ImmortalsState) -> EngagedView | None:
    choice = engaged(state)
    if choice is None:
        return None
    seat = state.engager
    spell = next((s for s in state.spells[seat] if s.sid == choice.spell), None)
    return EngagedView(
        seat=seat, unit=choice.unit, spell=None if spell is None else SpellView.of(spell, True)
    )


def view_of(state: ImmortalsState, player: int, to_act: list[int]) -> ImmortalsView:
    own = player in (0, 1)
    choice = state.pending[player] if own else None
    public = _engaged(state)
    engage_by, engage_defense = engage_rule(state.units)
    committed = {public.spell.sid} if public is not None and public.spell is not None else set()
    left = [len([s for s in spells_left(state, seat) if s.sid not in committed]) for seat in (0, 1)]
    return ImmortalsView(
        seat=player,
        player_ids=state.player_ids,
        terrain=state.terrain,
        engager=state.engager,
        engage_totals=state.engage_totals,
        engage_by=engage_by,
        engage_defense=engage_defense,
        units=state.units,
        fought=(
            tuple(r.fighters[0].uid for r in state.history),
            tuple(r.fighters[1].uid for r in state.history),
        ),
        spells_left=(left[0], left[1]),
        vitality=state.vitality,
        round=state.round,
        rounds=ROUNDS,
        to_act=tuple(to_act),
        chosen=(state.pending[0] is not None, state.pending[1] is not None),
        engaged=public,
        history=state.history,
        finished=state.finished,
        winner=state.winner,
        reason=None if state.reason is None else f"immortals.outcome.{state.reason}",
        spells=tuple(
            SpellView.of(s, s.sid in cast(state, player) or s.sid in committed) for s in state.spells[player]
        )
        if own
        else (),
        choice=choice,
        choice_token=None if choice is None else choice_token(state, player),
    )
