"""What the running bot's deliverer costs the database for a command's post: one read of the outbox, and its
record riding with the next commit (the next command's), not a commit of its own; no post is sent twice
for it, and an edit of a post whose record is still riding finds the message."""

from __future__ import annotations

import asyncio

from sandbox.harness import BotHarness
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import enqueue
from store.connection import Connection


async def delivered(h: BotHarness, edits: int, posts: int = 2) -> None:
    """Wait for the bot's own deliverer (its pass may start after the emulator looks idle: on PostgreSQL a
    read and a claim come first), then for the traffic to stop."""
    assert h.games_channel is not None
    for _ in range(500):
        shown = h.emu.channel_messages(h.games_channel)
        if len(shown) == posts and len(shown[-1].history) == edits:
            break
        await asyncio.sleep(0.01)
    await h.settle(deliver=False)


async def test_a_commands_post_costs_one_read_and_its_record_rides_with_the_next_commit(
    harness: BotHarness,
) -> None:
    h = harness
    assert h.bot is not None
    assert h.games_channel is not None
    services = h.bot.services
    db = services.db
    channel = h.games_channel.id
    now = services.clock.now()

    def post(text: str, edit_of: int | None = None):  # the unit a command's service runs
        def unit(conn: Connection) -> int:
            target = Target("channel", channel, guild_id=None)
            return enqueue(conn, now, target, MessageSpec(content=Text.raw(text)), edit_of=edit_of)

        return unit

    claim = 1 if db.concurrent_writers else 0  # PostgreSQL: the deliverer claims what it read
    await db.write(post("avant"))
    await h.settle()  # the channel's server known to the deliverer
    batches, reads = db.batches, db.reads
    first = await db.write(post("duel"))
    await delivered(h, edits=0)
    assert [m.content for m in h.emu.channel_messages(h.games_channel)] == ["avant", "duel"]
    assert db.batches - batches == 1 + claim  # the command's unit; one more before, the post's record
    assert db.reads - reads == 1  # the deliverer's read; two before, with one that found nothing

    await db.write(post("duel, tour 2", edit_of=first))  # the record rode with this commit
    await delivered(h, edits=1)
    assert db.batches - batches == 2 + 2 * claim
    [_, message] = h.emu.channel_messages(h.games_channel)
    assert message.content == "duel, tour 2"
    assert [state.get("content") for state in message.history] == ["duel"]
    posts = [r for r in h.emu.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert len(posts) == 2
    await h.settle()
    assert await services.outbox.due(10) == []
