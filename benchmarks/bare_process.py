"""The bare discord.py bot (benchmarks/bare_bots.py's `BareBot`: `/ping` answered by an ephemeral "pong",
no database, no services) in a process of its own, for `python -m benchmarks.bot_alone --bare`.

It is started as bot.py is through emulator/launch.py, and alike where it counts: discord.py is pointed
at the emulator by the launcher's own `point_at_emulator` (EMULATOR_REST_BASE, EMULATOR_GATEWAY),
DISCORD_TOKEN and DEV_GUILD_ID come from the environment (`/ping` is synced to that guild at start-up),
what start-up built is frozen out of the collector's reach before the gateway connects and the
collector's thresholds are raised (`BareBot(freeze_gc=True)`, as bot.py's bot does), and SIGTERM or
SIGINT close the bot and end the process with code 0 (what the benchmark's Fleet checks).

With MATCHED_REPLAY naming a file (a pickled `Replay`, written by benchmarks/command_costs.py), the
process runs the matched bot instead (`MatchedBot`: the real bot's captured requests for one command,
replayed), with the same settings.

It imports benchmarks/bare_bots.py, which imports the project's harness and emulator: those modules sit
in memory unused and frozen, as the real bot's own modules do in its process.

    DISCORD_TOKEN=... DEV_GUILD_ID=... EMULATOR_REST_BASE=... EMULATOR_GATEWAY=... \\
        python -m benchmarks.bare_process
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
from pathlib import Path

from benchmarks.bare_bots import BareBot, MatchedBot, Replay
from emulator.launch import point_at_emulator

log = logging.getLogger("bare")


async def serve(token: str, guild_id: int, replay: Replay | None) -> None:
    """Run the bot until it stops or a signal cancels it; leaving `async with` closes it either way."""
    bot = BareBot(guild_id, freeze_gc=True) if replay is None else MatchedBot(replay, freeze_gc=True)

    async def run() -> None:
        async with bot:
            await bot.start(token)

    running = asyncio.ensure_future(run())
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, running.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await running
    if bot.failures:
        raise SystemExit(f"the bare bot failed: {bot.failures!r}")


def main() -> None:
    point_at_emulator()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    replay = None
    if os.environ.get("MATCHED_REPLAY"):
        replay = pickle.loads(Path(os.environ["MATCHED_REPLAY"]).read_bytes())  # the benchmark's own file
        assert isinstance(replay, Replay)
    asyncio.run(serve(os.environ["DISCORD_TOKEN"], int(os.environ["DEV_GUILD_ID"]), replay))


if __name__ == "__main__":
    main()
