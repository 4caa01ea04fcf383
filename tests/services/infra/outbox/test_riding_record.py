"""The deliverer's own passes (`flush(hold=True)`) against the emulator: a pass that sent everything its one
read found reads no more, and its record rides with the next commit instead of a commit of its own; the
next pass never sends a post again for want of its record, and a quiet bot still records within `HOLD`."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from discord_app import delivery
from services.infra.messages import Target
from tests.services.infra.outbox.delivery import World, queue, restarted_deliverer, world

__all__ = ["world"]  # the fixture


async def state_of(world: World, item: int) -> str:
    return str(
        await world.services.db.read(
            lambda conn: conn.execute("SELECT state FROM outbox WHERE id = ?", (item,)).fetchone()[0]
        )
    )


async def test_a_pass_that_sent_all_it_read_reads_once_and_its_record_rides_with_the_next_commit(
    world: World,
) -> None:
    db = world.services.db
    deliverer, client = await restarted_deliverer(world)
    try:
        await queue(world, Target("channel", world.channel.id, guild_id=None), "Tour 0")
        await deliverer.flush()  # the channel's server and its language known
        first = await queue(world, Target("channel", world.channel.id, guild_id=None), "Tour 1")
        reads, batches = db.reads, db.batches
        assert await deliverer.flush(hold=True) == 1
        assert db.reads - reads == 1  # two before: a second read that found nothing
        assert db.batches == batches  # one before: the record's own commit
        assert await state_of(world, first) == "pending"  # sent, its record riding

        second = await queue(world, Target("channel", world.channel.id, guild_id=None), "Tour 2")
        assert db.batches == batches + 1  # the record rode with that commit
        assert await state_of(world, first) == "sent"
        assert await deliverer.flush(hold=True) == 1  # the second post only
        await deliverer.flush()  # a plain flush records what it sent before it returns
        assert await state_of(world, second) == "sent"
    finally:
        await client.close()
    assert [m.content for m in world.emu.channel_messages(world.channel)] == ["Tour 0", "Tour 1", "Tour 2"]
    posts = [r for r in world.emu.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert len(posts) == 3
    world.emu.assert_no_errors()


async def test_a_post_queued_behind_the_one_sent_is_read_again_and_sent_in_order(world: World) -> None:
    target = Target("channel", world.channel.id, guild_id=None)
    for text in ("un", "deux", "trois"):
        await queue(world, target, text)
    deliverer, client = await restarted_deliverer(world)
    try:
        assert await deliverer.flush(hold=True) == 3
        await deliverer.flush()
    finally:
        await client.close()
    assert [m.content for m in world.emu.channel_messages(world.channel)] == ["un", "deux", "trois"]
    assert await world.services.outbox.due(10) == []
    world.emu.assert_no_errors()


async def test_a_record_left_riding_commits_alone_within_the_hold_on_a_quiet_bot(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery, "HOLD", timedelta(milliseconds=50))
    db = world.services.db
    item = await queue(world, Target("channel", world.channel.id, guild_id=None), "Fin")
    deliverer, client = await restarted_deliverer(world)
    try:
        batches = db.batches
        assert await deliverer.flush(hold=True) == 1
        assert await state_of(world, item) == "pending"
        for _ in range(100):
            await asyncio.sleep(0.01)
            if db.batches > batches:
                break
        assert db.batches == batches + 1
        assert await state_of(world, item) == "sent"
    finally:
        await client.close()


async def test_a_stopped_deliverer_leaves_its_last_record_committed(world: World) -> None:
    item = await queue(world, Target("channel", world.channel.id, guild_id=None), "Au revoir")
    deliverer, client = await restarted_deliverer(world)
    try:
        assert await deliverer.flush(hold=True) == 1
        await deliverer.stop()
        assert await state_of(world, item) == "sent"
    finally:
        await client.close()
