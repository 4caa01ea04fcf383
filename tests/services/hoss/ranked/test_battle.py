"""A ranked battle through the service: decisions, the live view, the result and its gold, the log and the
replay, refusals that change nothing, double clicks, and a restart in the middle of a battle."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import DomainError, IllegalAction, NotAllowed, NotFound
from engine.hoss.actions import HossAction, Pass, Play
from engine.hoss.ranks import battle_reward
from services.hoss.battle.battles import DECISION_TIMEOUT, REASON
from services.hoss.battle.choices import Choice, fingerprint
from services.hoss.battle.view import NOTABLE_EVENTS
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.conftest import open_database
from tests.services.hoss.ranked import (
    choose,
    decision_rows,
    gold,
    play_through,
    player_with_deck,
    replayed,
    rows,
    service,
)


def deaths_in(log: dict[str, Any]) -> int:
    return sum(
        1
        for record in log["rounds"]
        for e in record["events"]
        if e["k"] == "death" and e["tgt"].startswith("a")
    )


async def everything(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables = ("matches", "match_seats", "match_moves", "hoss_battle_rounds", "ledger", "jobs", "idempotency")
    return {t: await rows(db, f"SELECT * FROM {t} ORDER BY 1, 2") for t in tables}


async def test_a_full_battle_with_decisions_pays_its_reward_and_replays_identically(
    db: Database, clock: ManualClock, conservation: Callable[[Connection], None], registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    before = await gold(db, 1)
    started = await ranked.start(1, 1, key="i1")
    assert (started.rank, started.replayed) == (1, False)
    assert await ranked.current(1) == started.battle_id

    first = await ranked.view(1, started.battle_id)
    assert (first.status, first.pause, first.round, first.new_rounds, first.result) == (
        "live",
        1,
        0,
        (),
        None,
    )
    assert first.deadline == clock.now() + DECISION_TIMEOUT
    assert first.legal
    assert first.legal[-1] == Pass()
    me, them = first.snapshot.seats
    assert me.hand_cards is not None
    assert len(me.hand_cards) == 3
    assert them.hand_cards is None

    seen: list[int] = []
    view = first
    for turn in range(500):
        if view.status != "live":
            break
        answered = await ranked.answer(
            1, started.battle_id, choose(view, turn), key=f"a{turn}", pause=view.pause
        )
        assert answered.answered_pause == view.pause
        assert not answered.replayed
        view = await ranked.view(1, started.battle_id)
        seen += [r.round for r in view.new_rounds]
        for r in view.new_rounds:
            assert len(r.sides) == 2
            assert all("creatures" in side and "synergy" in side for side in r.sides)
            assert all(e["k"] in NOTABLE_EVENTS for e in r.notable)
    assert view.status in ("won", "lost", "draw")
    assert view.result is not None
    assert seen == list(range(1, view.round + 1))  # every round shown once, in order
    assert (await ranked.view(1, started.battle_id)).new_rounds == ()

    log = json.loads(await ranked.log(1, started.battle_id))
    assert log["outcome"]["rounds"] == view.result.rounds == view.round
    assert {d["by"] for d in log["decisions"]} == {"player", "ai"}
    won = view.status == "won"
    expected = battle_reward(1, won=won, rounds=view.round, deaths=deaths_in(log), wins_before=0)
    assert view.result.gold == expected.total == await gold(db, 1) - before
    assert (view.result.base, view.result.fast_bonus, view.result.flawless_bonus) == (
        expected.base,
        expected.fast_bonus,
        expected.flawless_bonus,
    )
    paid = await rows(
        db, "SELECT delta FROM ledger WHERE reason = ? AND ref = ?", REASON, str(started.battle_id)
    )
    assert paid == [(expected.total,)]
    progress = await rows(db, "SELECT wins, losses FROM hoss_rank_progress WHERE player_id = 1 AND rank = 1")
    assert progress == [(int(won), int(not won))]
    assert await ranked.replay(1, started.battle_id) == await ranked.log(1, started.battle_id)
    assert await ranked.current(1) is None
    # each pause had its deadline job; each was withdrawn when the pause was answered
    assert {state for (state,) in await rows(db, "SELECT state FROM jobs")} == {"cancelled"}
    await db.read(conservation)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
async def test_replay_from_seed_and_decisions_gives_the_same_log(
    db: Database, clock: ManualClock, seed: int, registry: GameRegistry
) -> None:
    await player_with_deck(
        db, clock, 1, rarity="or", stars=3, registry=registry
    )  # whole lines: evolutions and path choices
    ranked = service(db, clock, seed=seed, registry=registry)
    started = await ranked.start(1, 1, key="s")
    # a few decisions of the player, mid-battle replay, then the AI takes the rest
    view = await ranked.view(1, started.battle_id)
    for turn in range(3):
        if view.status != "live":
            break
        await ranked.answer(1, started.battle_id, choose(view, turn + seed), key=f"t{turn}", pause=view.pause)
        view = await ranked.view(1, started.battle_id)
    assert await replayed(db, started.battle_id) == await ranked.log(1, started.battle_id)
    result = await ranked.skip_to_end(1, started.battle_id)
    log = await ranked.log(1, started.battle_id)
    assert await ranked.replay(1, started.battle_id) == log
    assert json.loads(log)["outcome"]["rounds"] == result.rounds
    assert "skip" in {d["by"] for d in json.loads(log)["decisions"]}


async def test_an_illegal_or_stale_answer_changes_nothing(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    before = await everything(db)
    legal = (await ranked.view(1, battle)).legal
    refused: tuple[tuple[HossAction | Choice, type[DomainError]], ...] = (
        (Play("b1"), IllegalAction),  # the opponent's card
        (Choice(len(legal), fingerprint(Pass())), NotAllowed),  # a forged index, past the list
        (Choice(0, fingerprint(legal[1])), NotAllowed),  # an index that is not the action shown
    )
    for bad, error in refused:
        with pytest.raises(error) as caught:
            await ranked.answer(1, battle, bad, key=f"bad{bad}", pause=1)
        if isinstance(bad, Choice):
            assert caught.value.key == "hoss.error.ranked.choice_gone"
    with pytest.raises(NotAllowed) as stale:
        await ranked.answer(1, battle, Pass(), key="old", pause=0)
    assert stale.value.key == "hoss.error.ranked.stale"
    with pytest.raises(NotFound):
        await ranked.answer(2, battle, Pass(), key="other", pause=1)
    with pytest.raises(NotFound):
        await ranked.view(2, battle)
    with pytest.raises(NotFound):
        await ranked.skip_to_end(2, battle)
    assert await everything(db) == before


async def test_a_double_click_applies_once(db: Database, clock: ManualClock, registry: GameRegistry) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    first = await ranked.answer(1, battle, Pass(), key="click", pause=1)
    again = await ranked.answer(1, battle, Pass(), key="click", pause=1)
    assert (again.replayed, again.answered_pause, again.pause) == (True, 1, first.pause)
    mine = [d.pause for d in await decision_rows(db, battle) if d.seat == 0]
    assert mine == [1]
    await player_with_deck(db, clock, 2, registry=registry)
    theirs = (await ranked.start(2, 1, key="i2")).battle_id
    with pytest.raises(NotAllowed):  # the same key from someone else is not theirs to replay
        await ranked.answer(2, theirs, Pass(), key="click")


async def test_skip_to_end_resolves_at_once_and_pays_once(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    battle = (await ranked.start(1, 1, key="i")).battle_id
    result = await ranked.skip_to_end(1, battle)
    assert result == await ranked.skip_to_end(1, battle)  # a finished battle just returns its result
    paid = await rows(db, "SELECT COUNT(*) FROM ledger WHERE reason = ? AND ref = ?", REASON, str(battle))
    assert paid == [(1 if result.gold else 0,)]
    with pytest.raises(NotAllowed) as over:
        await ranked.answer(1, battle, Pass(), key="late")
    assert over.value.key == "hoss.error.ranked.over"
    view = await ranked.view(1, battle)
    assert view.result == result
    assert len(view.new_rounds) == result.rounds
    assert view.deadline is None


async def test_a_battle_survives_a_restart(
    tmp_path: Path, clock: ManualClock, registry: GameRegistry
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    try:
        await player_with_deck(db, clock, 1, registry=registry)
        ranked = service(db, clock, registry=registry)
        battle = (await ranked.start(1, 1, key="i")).battle_id
        view = await ranked.view(1, battle)
        for turn in range(2):
            await ranked.answer(1, battle, choose(view, turn), key=f"a{turn}", pause=view.pause)
            view = await ranked.view(1, battle)
        shown = view.round
    finally:
        await db.close()

    db = await open_database(path)
    try:
        ranked = service(
            db, clock, seed=999, registry=registry
        )  # a new process: another seed source, same database
        assert await ranked.current(1) == battle
        view = await ranked.view(1, battle)
        assert view.new_rounds == ()
        assert view.round == shown
        final = await play_through(ranked, 1, battle)
        assert final.result is not None
        assert await ranked.replay(1, battle) == await ranked.log(1, battle)
    finally:
        await db.close()
