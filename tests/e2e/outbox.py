"""Messages put in the outbox as the services put them, for the end-to-end delivery tests."""

from __future__ import annotations

from sandbox.harness import BotHarness
from services.infra.messages import MessageSpec, Target
from services.infra.outbox import enqueue
from store.connection import Connection


async def queue(h: BotHarness, specs: list[tuple[MessageSpec, bool]], channel_id: int) -> list[int]:
    """Enqueue the specs in one unit; each flagged one edits the first item."""
    assert h.bot is not None
    services = h.bot.services
    now = services.clock.now()

    def unit(conn: Connection) -> list[int]:
        ids: list[int] = []
        for spec, edit in specs:
            ids.append(
                enqueue(
                    conn,
                    now,
                    Target("channel", channel_id, guild_id=None),
                    spec,
                    edit_of=ids[0] if edit else None,
                )
            )
        return ids

    ids = await services.db.write(unit)
    await h.settle()
    return ids
