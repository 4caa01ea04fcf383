"""Drops as the end-to-end tests set them up: a manager turns them on, players' commands make room, and
the minutes it takes pass (the drops' tests, the hidden-information scan)."""

from __future__ import annotations

from datetime import timedelta

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness

SEED = 1  # the drops' stream: this first drop is a Chocobataille card (examples/drops.txt draws it too)


async def drops_on(h: BotHarness, rhythm: str = "Fréquents", **options: str) -> str:
    admin = h.user("olivia")
    await h.emu.run_command(admin, "configuration salon-parties", {"salon": h.games_channel})
    reply = await h.emu.run_command(admin, "configuration drops", {"rythme": rhythm, **options})
    assert reply.message is not None
    return reply.message.render()


async def players_active(h: BotHarness, *names: str) -> list[User]:
    users = [h.user(name) for name in names]
    for user in users:
        await h.emu.run_command(user, "profil")
    await h.settle()
    return users


def drop_messages(h: BotHarness) -> list[RecordedMessage]:
    assert h.games_channel is not None
    return [m for m in h.emu.channel_messages(h.games_channel) if "drop" in m.render().lower()]


async def a_drop(h: BotHarness) -> RecordedMessage:
    """Drops on ("Fréquents"), three players active, and the minutes it takes for one to appear."""
    await drops_on(h)
    await players_active(h, "alice", "bob", "carol")
    await h.advance(timedelta(minutes=11))
    (drop,) = drop_messages(h)
    return drop
