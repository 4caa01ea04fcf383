"""A bot stopped in its first seconds, before discord.py fired `ready`, stops cleanly.

discord.py dispatches `ready` `guild_ready_timeout` after the last GUILD_CREATE. A SIGTERM inside that
window used to leave the wait running past the close; it then dispatched into a closed client and logged
"Task exception was never retrieved" (seen when a benchmark stopped its bot right after start-up).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from core.clock import ManualClock
from core.settings import Settings
from discord_app.bot import make_bot
from emulator import DiscordEmulator

READY_AFTER = 0.3  # seconds: long enough to close inside the window, short for the test


async def test_a_close_inside_the_ready_window_leaves_no_failed_task(tmp_path: Path) -> None:
    emu = DiscordEmulator(app_name="Cartes & Duels")
    await emu.start()
    emu.install()
    guild = emu.add_guild("Club des cartes", locale="fr")
    emu.add_channel(guild, "parties")
    settings = Settings(
        _env_file=None,
        discord_token=emu.bot_token,
        database_path=tmp_path / "bot.sqlite3",
        dev_guild_id=guild.id,
        shard_count=None,
        shard_ids=None,
    )
    bot = make_bot(settings, ManualClock(), guild_ready_timeout=READY_AFTER)
    running = asyncio.create_task(bot.start(emu.bot_token))
    try:
        await emu.wait_ready(timeout=20, settle=False)
        waiting = bot._connection._ready_task
        assert waiting is not None
        assert not waiting.done()  # inside the window: `ready` not fired yet
        assert not bot.is_ready()
        await bot.close()
        await asyncio.sleep(READY_AFTER * 2)  # past the moment the wait would have dispatched `ready`
        assert waiting.done()
        assert waiting.cancelled() or waiting.exception() is None
        assert not bot.game_tree.unexpected_errors
    finally:
        if not bot.is_closed():
            await bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await running
        emu.uninstall()
        await emu.stop()
