"""The outbox under Discord's rate limits (429): every post arrives once, in order. discord.py waits out a
short limit inside the call (5 tries); a longer one, or a 6th 429, comes back to the deliverer, which
tries again no sooner than Discord asked."""

from __future__ import annotations

import re
from datetime import timedelta

from sandbox.harness import BotHarness
from services.infra.messages import MessageSpec, Text
from store.connection import Connection
from tests.e2e.outbox import queue

POSTS = r"/channels/\d+/messages"


def _posts(h: BotHarness) -> list[int | None]:
    return [r.status for r in h.emu.requests if r.method == "POST" and re.fullmatch(POSTS, r.path)]


async def _queue_three(h: BotHarness) -> list[int]:
    assert h.games_channel is not None
    specs = [(MessageSpec(content=Text.raw(f"post {n}")), False) for n in (1, 2, 3)]
    return await queue(h, specs, h.games_channel.id)


def _delivered(h: BotHarness) -> list[str]:
    assert h.games_channel is not None
    return [m.content for m in h.emu.channel_messages(h.games_channel)]


async def _states(h: BotHarness, ids: list[int]) -> list[str]:
    assert h.bot is not None

    def unit(conn: Connection) -> list[str]:
        marks = ", ".join("?" * len(ids))
        rows = conn.execute(f"SELECT state FROM outbox WHERE id IN ({marks}) ORDER BY id", ids)
        return [str(row[0]) for row in rows]

    return await h.bot.services.db.read(unit)


async def test_short_rate_limits_are_waited_out_by_the_client(harness: BotHarness) -> None:
    harness.emu.rate_limit(POSTS, method="POST", times=3)

    ids = await _queue_three(harness)

    assert _delivered(harness) == ["post 1", "post 2", "post 3"]
    assert _posts(harness) == [429, 429, 429, 200, 200, 200]
    assert await _states(harness, ids) == ["sent"] * 3


async def test_a_post_refused_five_times_is_retried_by_the_outbox(harness: BotHarness) -> None:
    harness.emu.rate_limit(POSTS, method="POST", times=6)

    ids = await _queue_three(harness)

    assert _delivered(harness) == []
    assert _posts(harness) == [429] * 5
    assert await _states(harness, ids) == ["pending"] * 3  # the first holds back the others
    await harness.advance(timedelta(seconds=5))
    assert _delivered(harness) == ["post 1", "post 2", "post 3"]
    assert _posts(harness) == [429] * 6 + [200] * 3
    assert await _states(harness, ids) == ["sent"] * 3


async def test_a_long_rate_limit_is_not_tried_again_before_it_ends(harness: BotHarness) -> None:
    """60 s is over the bot's `MAX_RATELIMIT_WAIT`: discord.py raises at once instead of sleeping."""
    harness.emu.rate_limit(POSTS, method="POST", times=1, retry_after=60)

    ids = await _queue_three(harness)

    assert _posts(harness) == [429]
    await harness.advance(timedelta(seconds=59))
    assert _posts(harness) == [429]
    assert _delivered(harness) == []
    await harness.advance(timedelta(seconds=21))  # the back-off's next step over 60 s: 80 s
    assert _delivered(harness) == ["post 1", "post 2", "post 3"]
    assert _posts(harness) == [429, 200, 200, 200]
    assert await _states(harness, ids) == ["sent"] * 3


async def test_a_long_rate_limit_on_archiving_leaves_the_thread_open(harness: BotHarness) -> None:
    """The post went out; only the archiving is given up, as when Discord refuses it."""
    assert harness.games_channel is not None
    emu = harness.emu
    thread = emu.world.add_thread(harness.games_channel, "partie", owner=emu.bot_user)
    emu.rate_limit(rf"/channels/{thread.id}", method="PATCH", times=None, retry_after=60)

    ids = await queue(
        harness, [(MessageSpec(content=Text.raw("the end"), archive_thread=True), False)], thread.id
    )

    assert [m.content for m in emu.channel_messages(thread)] == ["the end"]
    assert not thread.archived
    assert await _states(harness, ids) == ["sent"]
