"""Milestones: every 100th win at a rank becomes a persisted notice, shown until claimed, credited once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from core.clock import ManualClock
from core.errors import NotFound
from services.hoss.battle.ranked import REASON_MILESTONE
from services.infra.games import GameRegistry
from store.connection import Connection
from store.db import Database
from tests.services.conftest import open_database
from tests.services.hoss.ranked import gold, player_with_deck, rows, service, set_wins
from tests.support.statements import trace_reads


async def test_the_hundredth_win_leaves_a_notice_whose_gold_comes_on_ok(
    tmp_path: Path, clock: ManualClock, conservation: Callable[[Connection], None], registry: GameRegistry
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    try:
        await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)
        await set_wins(db, 1, {1: 99})
        ranked = service(db, clock, registry=registry)
        battle = (await ranked.start(1, 1, key="win")).battle_id
        result = await ranked.skip_to_end(1, battle)
        assert (result.status, result.wins) == ("won", 100)
        assert result.milestone is not None
        after_battle = await gold(db, 1)
        notices = await ranked.pending_notices(1)
        assert [(n.kind, n.rank, n.wins, n.gold, n.battle_id) for n in notices] == [
            ("milestone", 1, 100, 100, battle)
        ]
        assert notices[0].id == result.milestone
        assert await ranked.pending_notices(1) == notices  # lost? it comes back at the next command
        assert (await ranked.ladder(1)).notices == tuple(notices)
        assert await gold(db, 1) == after_battle  # nothing until OK
    finally:
        await db.close()

    db = await open_database(path)  # the bot restarted before the player clicked OK
    try:
        ranked = service(db, clock, registry=registry)
        (notice,) = await ranked.pending_notices(1)
        with pytest.raises(NotFound):
            await ranked.claim_notice(2, notice.id)  # not theirs
        claims = await asyncio.gather(*(ranked.claim_notice(1, notice.id) for _ in range(10)))
        assert sum(c.credited for c in claims) == 1  # a double click credits once
        assert await gold(db, 1) == after_battle + 100
        assert all(c.notice == notice for c in claims)
        assert await ranked.pending_notices(1) == []
        assert (await ranked.claim_notice(1, notice.id)).credited is False
        paid = await rows(db, "SELECT delta, ref FROM ledger WHERE reason = ?", REASON_MILESTONE)
        assert paid == [(100, str(notice.id))]
        with pytest.raises(NotFound):
            await ranked.claim_notice(1, notice.id + 1)
        await db.read(conservation)
    finally:
        await db.close()


async def test_milestones_are_per_rank_and_worth_their_count(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)
    await set_wins(db, 1, {1: 10, 2: 10, 3: 10, 4: 799})
    ranked = service(db, clock, registry=registry)
    result = await ranked.skip_to_end(1, (await ranked.start(1, 4, key="w")).battle_id)
    assert (result.status, result.wins) == ("won", 800)
    assert [(n.rank, n.wins, n.gold) for n in await ranked.pending_notices(1)] == [(4, 800, 800)]
    # the next win at that rank is no milestone
    again = await ranked.skip_to_end(1, (await ranked.start(1, 4, key="w2")).battle_id)
    assert again.status == "won"
    assert again.milestone is None
    assert len(await ranked.pending_notices(1)) == 1


async def test_a_loss_on_the_way_is_no_milestone(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    await set_wins(db, 1, {r: 10 for r in range(1, 9)} | {9: 100})
    ranked = service(db, clock, registry=registry)
    result = await ranked.skip_to_end(1, (await ranked.start(1, 9, key="l")).battle_id)
    assert result.status == "lost"
    assert result.milestone is None
    assert await ranked.pending_notices(1) == []


async def test_no_notice_is_remembered_until_a_battle_leaves_one(
    tmp_path: Path, clock: ManualClock, registry: GameRegistry
) -> None:
    """Every /hoss command asks for notices: a player known to have none costs no read, and the battle
    that leaves one makes the very next question read again."""
    db = await open_database(tmp_path / "bot.sqlite3")
    try:
        await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)
        await set_wins(db, 1, {1: 99})
        ranked = service(db, clock, registry=registry)
        assert await ranked.pending_notices(1) == []
        reads = db.reads
        for _ in range(5):
            assert await ranked.pending_notices(1) == []
        assert db.reads == reads
        battle = (await ranked.start(1, 1, key="win")).battle_id
        result = await ranked.skip_to_end(1, battle)
        assert result.milestone is not None
        assert [n.id for n in await ranked.pending_notices(1)] == [result.milestone]
    finally:
        await db.close()


@pytest.mark.sqlite_only("the read's statements seen by SQLite's trace callback")
async def test_the_ladder_reads_the_ranks_once_and_no_notice_of_a_player_known_to_have_none(
    tmp_path: Path, clock: ManualClock, registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/hoss rang` on the event loop: each rank's wins and losses in one statement; the notices only
    while the player may have some (every /hoss command asks `pending_notices`, which remembers none)."""
    db = await open_database(tmp_path / "bot.sqlite3")
    try:
        await player_with_deck(db, clock, 1, rarity="divin", stars=5, registry=registry)
        await set_wins(db, 1, {1: 99})
        ranked = service(db, clock, registry=registry)
        assert await ranked.pending_notices(1) == []
        statements = trace_reads(db, monkeypatch)
        ladder = await ranked.ladder(1)
        assert (ladder.ranks[0].wins, ladder.notices) == (99, ())
        assert len([s for s in statements if "hoss_rank_progress" in s]) == 1
        assert [s for s in statements if "hoss_notices" in s] == []

        battle = (await ranked.start(1, 1, key="win")).battle_id
        result = await ranked.skip_to_end(1, battle)  # the 100th win leaves a notice
        assert [n.id for n in (await ranked.ladder(1)).notices] == [result.milestone]
        assert (await ranked.ladder(1)).ranks[0].losses == 0
    finally:
        await db.close()
