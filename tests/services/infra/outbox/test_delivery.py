"""The deliverer against the Discord emulator when the bot dies between sending a post and marking it
sent: the post goes out again after the restart with the same nonce, and Discord keeps one message."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from unittest.mock import patch

import pytest

from core.clock import ManualClock
from core.settings import Settings
from discord_app.delivery import HOLD
from services.infra.container import build_services
from services.infra.messages import Target, Text
from services.infra.outbox import OutboxItem
from store.connection import Connection
from tests.services.infra.outbox.delivery import World, queue, restarted_deliverer, world

__all__ = ["world"]  # the fixture


class Crash(BaseException):
    """The process dies here: nothing after this point runs, nothing catches it."""


async def deliver_with_a_crash_before(world: World, step: str) -> None:
    """Deliver once, dying right when the outbox would record `step` (or the deliverer would run it);
    then restart and deliver again."""

    async def crash(*args: object) -> object:
        raise Crash(step)

    deliverer, client = await restarted_deliverer(world)
    owner = world.services.outbox if hasattr(world.services.outbox, step) else deliverer
    real = getattr(owner, step)
    setattr(owner, step, crash)
    try:
        with pytest.raises(Crash):
            await deliverer.flush()
    finally:
        setattr(owner, step, real)
        await client.close()
    deliverer, client = await restarted_deliverer(world)
    try:
        assert await deliverer.flush() in (0, 1)
    finally:
        await client.close()


async def test_a_post_resent_after_a_crash_is_created_once(world: World) -> None:
    item_id = await queue(world, Target("channel", world.channel.id, guild_id=None), "Tour 3")

    await deliver_with_a_crash_before(world, "mark_all_sent")

    [message] = world.emu.channel_messages(world.channel)
    assert message.content == "Tour 3"
    item = await world.services.outbox.get(item_id)
    assert item is not None
    assert (item.state, item.sent_message_id) == ("sent", message.id)
    posts = [r for r in world.emu.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert [(r.json["nonce"], r.json["enforce_nonce"]) for r in posts] == [(item.nonce(), True)] * 2
    world.emu.assert_no_errors()


async def test_a_closed_dm_fallback_resent_after_a_crash_is_posted_once(world: World) -> None:
    fallback = world.channel.id
    await world.services.db.write(
        lambda conn: conn.execute(
            "INSERT INTO players (id, created_at, dms_closed) VALUES (?, '2026-01-01T00:00:00.000000Z', 1)",
            (world.carol.id,),
        )
    )
    item_id = await queue(
        world, Target("dm", world.carol.id, fallback_channel_id=fallback, guild_id=None), "ta main"
    )

    await deliver_with_a_crash_before(world, "mark_dms_closed")

    [button_post] = world.emu.channel_messages(world.channel)
    assert button_post.buttons[0]["custom_id"] == f"outbox:show:{item_id}"
    item = await world.services.outbox.get(item_id)
    assert item is not None
    assert item.state == "fallback"
    world.emu.assert_no_errors()


async def test_a_crash_before_the_closed_dm_fallback_still_posts_it(world: World) -> None:
    """The first DM to someone who refuses DMs: a crash after Discord's refusal, before the button post."""
    item_id = await queue(
        world, Target("dm", world.carol.id, fallback_channel_id=world.channel.id, guild_id=None), "main"
    )

    await deliver_with_a_crash_before(world, "_fallback")

    [button_post] = world.emu.channel_messages(world.channel)
    assert button_post.buttons[0]["custom_id"] == f"outbox:show:{item_id}"
    item = await world.services.outbox.get(item_id)
    assert item is not None
    assert item.state == "fallback"
    assert item.dms_closed
    world.emu.assert_no_errors()


async def test_nonces_are_short_distinct_and_tied_to_the_database(tmp_path: Path, world: World) -> None:
    ids = [await queue(world, Target("channel", world.channel.id, guild_id=None), str(n)) for n in range(3)]
    items = [await world.services.outbox.get(item_id) for item_id in ids]
    nonces = {item.nonce(purpose) for item in items if item is not None for purpose in ("post", "fallback")}
    assert len(nonces) == 6
    huge = items[0]
    assert huge is not None
    assert len(huge.nonce()) <= 25
    assert len(type(huge)(**{**huge.__dict__, "id": 2**63 - 1}).nonce()) <= 25

    def prefix(conn: Connection) -> str:
        return str(conn.execute("SELECT prefix FROM outbox_nonce_prefix").fetchone()[0])

    other = Settings(_env_file=None, discord_token="t", database_path=tmp_path / "other.sqlite3")
    elsewhere = await build_services(other, ManualClock())
    try:
        # Another database sharing the bot's token numbers its rows alike but draws another prefix.
        assert await elsewhere.db.read(prefix) != await world.services.db.read(prefix)
        assert huge.nonce().startswith(await world.services.db.read(prefix))
    finally:
        await elsewhere.close()


async def test_a_pass_records_its_posts_together_unless_one_waited_past_the_hold(world: World) -> None:
    """Posts sent from one read are recorded in one transaction; one sent more than `HOLD` after the first
    unrecorded one (a rate limit's wait) has the earlier ones recorded first."""
    guild = world.emu.add_guild("Autre", locale="fr")
    places = [world.channel, *(world.emu.add_channel(guild, f"salon-{n}") for n in range(3))]
    for n, place in enumerate(places):
        await queue(world, Target("channel", place.id, guild_id=None), f"Tour {n}")
    recorded: list[int] = []
    outbox = world.services.outbox
    record = outbox.mark_all_sent

    async def counted(sent: Sequence[tuple[int, int]]) -> int:
        if sent:
            recorded.append(len(sent))
        return await record(sent)

    deliverer, client = await restarted_deliverer(world)
    deliver = deliverer._deliver
    clock = world.services.clock
    assert isinstance(clock, ManualClock)

    async def slow_third(item: OutboxItem) -> int:
        if item.spec.content == Text.raw("Tour 2"):
            clock.advance(HOLD)
        return await deliver(item)

    with patch.object(outbox, "mark_all_sent", counted), patch.object(deliverer, "_deliver", slow_third):
        try:
            assert await deliverer.flush() == 4
        finally:
            await client.close()
    assert recorded == [3, 1]
    assert await outbox.due(10) == []
    world.emu.assert_no_errors()
