"""Every REST request of the real bot passes its share of Discord's global rate limit (discord_app/rate_limit.py),
and a global 429 pauses it and is recorded for the rest of the fleet; a route's 429 stays discord.py's."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from emulator.global_limit import exempt
from sandbox.harness import BotHarness
from services.infra.messages import MessageSpec, Text
from services.infra.rate_limits import read_pause
from tests.e2e.choco.helpers import challenge_accepted, with_bronze_deck
from tests.e2e.outbox import queue

POSTS = r"/channels/\d+/messages"


def _posts(h: BotHarness) -> list[tuple[float, int]]:
    return [(r.at, r.status) for r in h.emu.requests if r.method == "POST" and re.fullmatch(POSTS, r.path)]


async def _post_one(h: BotHarness) -> None:
    assert h.games_channel is not None
    await queue(h, [(MessageSpec(content=Text.raw("bonjour")), False)], h.games_channel.id)


async def test_a_global_429_pauses_the_bot_and_the_fleet_for_its_retry_after(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.emu.rate_limit(POSTS, method="POST", global_limit=True, retry_after=0.4)

    await _post_one(harness)

    (limited_at, limited), (sent_at, sent) = _posts(harness)
    assert (limited, sent) == (429, 200)
    assert sent_at - limited_at >= 0.4
    limiter = harness.bot.rate_limit.limiter
    assert limiter.paused_until > 0
    assert await harness.bot.services.db.read(read_pause) == limiter.paused_until  # for the other processes
    harness.emu.assert_no_errors()


async def test_a_route_429_pauses_nothing_else(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.emu.rate_limit(POSTS, method="POST", retry_after=0.05)

    await _post_one(harness)

    assert [status for _, status in _posts(harness)] == [429, 200]
    assert harness.bot.rate_limit.limiter.paused_until == 0
    assert await harness.bot.services.db.read(read_pause) == 0
    harness.emu.assert_no_errors()


async def test_a_burst_from_anywhere_in_the_bot_leaves_at_its_share(harness: BotHarness) -> None:
    """Five processes in the fleet: 10 requests a second here, one every 1 / 8.5 s, whichever code sends them."""
    assert harness.bot is not None
    assert harness.games_channel is not None
    limiter = harness.bot.rate_limit.limiter
    limiter.processes = 5
    channel: Any = harness.bot.get_channel(harness.games_channel.id)
    await asyncio.sleep(1 / limiter.rate)  # start-up's own requests are past
    harness.emu.clear_records()

    await asyncio.gather(*(channel.send(f"message {n}") for n in range(10)))

    times = sorted(at for at, status in _posts(harness) if status == 200)
    assert len(times) == 10
    assert times[-1] - times[0] >= 9 / limiter.rate - 0.05  # a second for ten, not a moment
    harness.emu.assert_no_errors()


async def test_every_request_with_the_bot_token_passes_the_limiter_and_no_interaction_endpoint_does(
    harness: BotHarness,
) -> None:
    """A Chocobataille challenge accepted: commands and clicks answered (callbacks, follow-ups), a thread
    created and posts sent (the bot's token). The limiter saw exactly the requests Discord's global limit
    counts, as the emulator tells them apart."""
    assert harness.bot is not None
    limiter = harness.bot.rate_limit.limiter
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    before, seen = limiter.requests, len(harness.emu.requests)

    await challenge_accepted(harness, alice, bob)

    new = harness.emu.requests[seen:]
    bot_token = [r for r in new if r.token is not None and not exempt(r.path)]
    interaction_endpoints = [r for r in new if exempt(r.path)]
    assert bot_token
    assert interaction_endpoints
    assert limiter.requests - before == len(bot_token)
    harness.emu.assert_no_errors()
