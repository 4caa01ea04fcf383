"""The « Défenseur » button's use cases: the moves the player may make now, re-checked at every click,
and a move answered through the service that guards the new protégé once the battle goes on."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed, NotFound
from engine.hoss import HossAction, Move, Pass, Play
from services.hoss.battle.choices import choice_value, parse_choice
from services.hoss.battle.ranked import BattleView, RankedService
from services.infra.games import GameRegistry
from store.db import Database
from tests.services.hoss.ranked import decision_rows, player_with_deck, service

GUILD = 77
BATTLE_SEED = 1  # the AI's deck and the draws of a battle where a Défenseur move comes up before the end


def towards_a_move(view: BattleView) -> HossAction:
    """Play Défenseurs first, then attackers, so that a Défenseur soon stands on one of several attackers."""
    plays = [a for a in view.legal if isinstance(a, Play)]
    guarded: list[HossAction] = [a for a in plays if a.protege]
    return (guarded or plays or list(view.legal))[0]


async def at_a_move(ranked: RankedService, battle: int) -> BattleView:
    view = await ranked.view(1, battle, GUILD)
    for turn in range(60):
        if any(isinstance(a, Move) for a in view.legal):
            return view
        assert view.status == "live"
        await ranked.answer(1, battle, towards_a_move(view), key=f"t{turn}", pause=view.pause, guild=GUILD)
        view = await ranked.view(1, battle, GUILD)
    raise AssertionError("no Défenseur move came up")


async def test_the_defender_button_lists_the_legal_moves_and_a_move_takes_effect(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, seed=BATTLE_SEED, registry=registry)
    battle = (await ranked.start(1, 1, key="s", guild=GUILD)).battle_id
    view = await at_a_move(ranked, battle)
    offered = await ranked.defender_moves(1, battle, pause=view.pause, guild=GUILD)
    moves = list(offered.moves)
    assert {uid for move in moves for uid in move} <= set(offered.cards)
    legal = [(a.defender, a.protege) for a in view.legal if isinstance(a, Move)]
    assert moves == legal
    defender, protege = moves[-1]
    guarding = {c.uid: c.protege for c in view.snapshot.seats[0].creatures}
    assert guarding[defender] not in (None, protege)

    answered = await ranked.answer(
        1, battle, Move(defender, protege), key="move", pause=view.pause, guild=GUILD
    )
    assert answered.pause == view.pause  # a move closes no decision: the player still plays or passes
    left = [m for m in moves if m[0] != defender]
    if left:
        assert list((await ranked.defender_moves(1, battle, pause=view.pause, guild=GUILD)).moves) == left
    else:
        with pytest.raises(NotAllowed):
            await ranked.defender_moves(1, battle, pause=view.pause, guild=GUILD)
    after = await ranked.view(1, battle, GUILD)
    assert not any(isinstance(a, Move) and a.defender == defender for a in after.legal)  # once per pause
    # the select drawn before the move names the list as it was: its Pass is past the end now
    shown_before = choice_value(len(view.legal) - 1, view.legal[-1])
    with pytest.raises(NotAllowed) as gone:
        await ranked.answer(1, battle, parse_choice(shown_before), key="old", pause=view.pause, guild=GUILD)
    assert gone.value.key == "hoss.error.ranked.choice_gone"
    assert (await ranked.view(1, battle, GUILD)).legal == after.legal  # nothing was played
    passing = after.legal.index(Pass())
    fresh = parse_choice(choice_value(passing, after.legal[passing]))
    await ranked.answer(1, battle, fresh, key="pass", pause=view.pause, guild=GUILD)
    later = await ranked.view(1, battle, GUILD)
    first = later.new_rounds[0].record
    assert {"t": 0, "k": "move", "tgt": defender, "protege": protege} in first["events"]
    stored = await decision_rows(db, battle)
    assert any(d.action["kind"] == "move" and d.by == "player" for d in stored)


async def test_the_defender_button_is_rechecked_at_every_click(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    await player_with_deck(db, clock, 2, registry=registry)
    ranked = service(db, clock, seed=BATTLE_SEED, registry=registry)
    battle = (await ranked.start(1, 1, key="s", guild=GUILD)).battle_id
    view = await ranked.view(1, battle, GUILD)
    assert not any(isinstance(a, Move) for a in view.legal)  # no Défenseur in play yet
    with pytest.raises(NotAllowed) as refused:
        await ranked.defender_moves(1, battle, pause=view.pause, guild=GUILD)
    assert refused.value.key == "hoss.error.ranked.no_move"
    view = await at_a_move(ranked, battle)
    with pytest.raises(NotFound):
        await ranked.defender_moves(2, battle, pause=view.pause, guild=GUILD)  # another player
    with pytest.raises(NotFound):
        await ranked.defender_moves(1, battle, pause=view.pause, guild=GUILD + 1)  # another server
    with pytest.raises(NotFound):
        await ranked.defender_moves(1, battle + 1, pause=view.pause, guild=GUILD)  # no such battle
    with pytest.raises(NotAllowed) as stale:
        await ranked.defender_moves(1, battle, pause=view.pause - 1, guild=GUILD)
    assert stale.value.key == "hoss.error.ranked.stale"
    await ranked.skip_to_end(1, battle, GUILD)
    with pytest.raises(NotAllowed) as over:
        await ranked.defender_moves(1, battle, guild=GUILD)
    assert over.value.key == "hoss.error.ranked.over"
