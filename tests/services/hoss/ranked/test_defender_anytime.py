"""« Tu peux aussi le déplacer quand tu veux grâce au bouton « Défenseur ». »: while the player has a
Défenseur in play, the battle waits between every two rounds where it could move (5 seconds, the pace the
message shows its rounds at), the message carries the « Défenseur » button on every round, a move chosen
there applies from the start of the next round, once per round, and the round comes by itself."""

from __future__ import annotations

import pytest

from core.clock import ManualClock
from core.errors import NotAllowed
from engine.hoss import HossAction, Move, Pass, Play
from services.hoss.battle import battles
from services.hoss.battle import edits as battle_edits
from services.hoss.battle.battles import DECISION_TIMEOUT, ROUND_JOB, ROUND_STOP
from services.hoss.battle.ranked import BattleView, RankedService
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import decision_rows, player_with_deck, rows, service

GUILD = 77


def towards_a_defender(view: BattleView) -> HossAction:
    """Play Défenseurs first, then attackers; pass once nothing is left to play."""
    plays = [a for a in view.legal if isinstance(a, Play)]
    guarded: list[HossAction] = [a for a in plays if a.protege]
    return (guarded or plays or [a for a in view.legal if isinstance(a, Pass)] or list(view.legal))[0]


def between(view: BattleView) -> bool:
    return bool(view.legal) and all(isinstance(a, Move | Pass) for a in view.legal)


async def at_a_stop_between_rounds(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> tuple[RankedService, int, BattleView]:
    """Player 1's Rang 1 battle played towards a Défenseur on one of several attackers, until it waits
    between two rounds: the service, the battle and the view then."""
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry, sched, seed=1)
    battle = (await ranked.start(1, 1, key="s", guild=GUILD)).battle_id
    view = await ranked.view(1, battle, GUILD)
    for turn in range(80):
        assert view.status == "live", "the battle ended before a Défenseur could move between rounds"
        if between(view):
            return ranked, battle, view
        await ranked.answer(
            1, battle, towards_a_defender(view), key=f"t{turn}", pause=view.pause, guild=GUILD
        )
        view = await ranked.view(1, battle, GUILD)
    raise AssertionError("the battle never waited between two rounds")


async def job_of(db: Database, battle: int) -> tuple[str, str]:
    (found,) = await rows(
        db,
        "SELECT j.kind, j.due_at FROM jobs j JOIN matches m ON m.deadline_job = j.id"
        " WHERE m.game = 'hoss' AND m.number = ?",
        battle,
    )
    return str(found[0]), str(found[1])


async def test_the_battle_waits_between_rounds_for_a_defender_move_and_goes_on_by_itself(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    ranked, battle, view = await at_a_stop_between_rounds(db, clock, sched, registry=registry)
    assert view.deadline == clock.now() + ROUND_STOP  # not the 2 minutes of a decision
    kind, _ = await job_of(db, battle)
    assert kind == ROUND_JOB

    # The message at this stop: the « Défenseur » button, no « Décider » (nothing is owed).
    def board(conn: Connection) -> MessageSpec:
        row = battles.load(conn, battle)
        assert row is not None
        return battle_edits.board_spec(conn, row, ranked.catalog)

    shown = await db.read(board)
    ids = [b.custom_id for b in shown.buttons]
    assert f"hoss:rguard:1:{battle}" in ids
    assert not any(i.startswith("hoss:rdecide:") for i in ids)

    # A move from the battle message's button applies where the battle stands: from the next round on.
    offered = await ranked.defender_moves(1, battle, guild=GUILD)
    defender, protege = offered.moves[0]
    answered = await ranked.answer(1, battle, Move(defender, protege), key="m", pause=None, guild=GUILD)
    assert answered.pause == view.pause  # still waiting: the round comes when the stop ends
    left = [m for m in offered.moves if m[0] != defender]  # each Défenseur moves once per round
    if left:
        assert list((await ranked.defender_moves(1, battle, guild=GUILD)).moves) == left
    else:
        with pytest.raises(NotAllowed) as again:
            await ranked.defender_moves(1, battle, guild=GUILD)
        assert again.value.key == "hoss.error.ranked.moved"

    clock.advance(ROUND_STOP)
    assert await sched.run_due() == 1
    later = await ranked.view(1, battle, GUILD)
    first = later.new_rounds[0].record
    assert first["round"] == view.round + 1
    assert {"t": 0, "k": "move", "tgt": defender, "protege": protege} in first["events"]
    stored = [d for d in await decision_rows(db, battle) if d.seat == 0 and d.pause == view.pause]
    assert [(d.action["kind"], d.by, d.between) for d in stored] == [
        ("move", "player", False),
        ("pass", "timeout", True),
    ]
    assert later.pause > view.pause
    assert view.pause not in later.ai_decided  # the stop ran out: the AI decided nothing for the player


async def test_a_battle_left_alone_between_rounds_runs_to_its_end_and_replays(
    db: Database, clock: ManualClock, sched: Scheduler, registry: GameRegistry
) -> None:
    ranked, battle, _ = await at_a_stop_between_rounds(db, clock, sched, registry=registry)
    for _ in range(200):
        if (await ranked.view(1, battle, GUILD)).status != "live":
            break
        clock.advance(DECISION_TIMEOUT)
        await sched.run_due()
    assert (await ranked.view(1, battle, GUILD)).status != "live"
    assert await ranked.replay(1, battle, GUILD) == await ranked.log(1, battle, GUILD)
