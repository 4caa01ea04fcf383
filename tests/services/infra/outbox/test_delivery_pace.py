"""Discord's global rate limit shared by a fleet: with N processes beating, each deliverer sends at most
GLOBAL_BUDGET / N posts a second; one process alone is not paced (docs/deployment.md)."""

from __future__ import annotations

import asyncio

from discord_app.delivery import GLOBAL_BUDGET
from services.infra.messages import Target
from tests.services.infra.outbox.delivery import World, queue, restarted_deliverer, world

__all__ = ["world"]  # the fixture

POSTS = 12


async def timed_flush(w: World, fleet: int) -> float:
    channels = [w.emu.add_channel(w.emu.world.guilds[0], f"salon-{fleet}-{n}") for n in range(POSTS)]
    for channel in channels:  # one post per channel: all due at once
        await queue(w, Target("channel", channel.id, guild_id=None), f"post-{channel.id}")
    w.services.heartbeat.fleet = fleet
    deliverer, client = await restarted_deliverer(w)
    loop = asyncio.get_running_loop()
    try:
        started = loop.time()
        assert await deliverer.flush() == POSTS
        return loop.time() - started
    finally:
        await client.close()


async def test_each_of_four_processes_sends_a_quarter_of_the_budget(world: World) -> None:
    alone = await timed_flush(world, 1)
    paced = await timed_flush(world, 4)
    assert paced >= (POSTS - 1) * 4 / GLOBAL_BUDGET  # 1.1 s: 10 posts a second at most
    assert alone < paced / 2, (alone, paced)
    world.emu.assert_no_errors()
