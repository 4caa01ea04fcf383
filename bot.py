"""Entry point: read the settings, then run the bot on Discord, or in the sandbox (`--sandbox`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any

from core import native

# Before anything imports the engine: compiled modules that no longer match their sources are removed
# (the worker processes of the lab import this module first too).
native.ensure_fresh()

from core.settings import Settings, SettingsError, load_settings  # noqa: E402
from services.infra.catalogs import CatalogError  # noqa: E402


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Card games bot for Discord.")
    parser.add_argument("--sandbox", action="store_true", help="run against the built-in Discord emulator")
    parser.add_argument(
        "--script", metavar="FILE", help="sandbox: run the commands in FILE and print the transcript"
    )
    parser.add_argument(
        "--db", metavar="PATH", help="sandbox: database file (default: a fresh temporary one)"
    )
    parser.add_argument(
        "--seed",
        metavar="N",
        type=int,
        help="sandbox: seed the games' random draws, so that the same script gives the same transcript",
    )
    return parser.parse_args(argv)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

log = logging.getLogger("bot")


async def run_until_signalled(work: Coroutine[Any, Any, None]) -> None:
    """Run `work` until it ends, or until SIGINT or SIGTERM cancels it.

    Both signals stop the bot the same graceful way: SIGTERM is what a service manager or `docker stop`
    sends, and its default action would kill the process without the closing steps. A second signal
    gets its default action back, so a stuck shutdown can still be interrupted.
    """
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(work)

    def on_signal(received: signal.Signals) -> None:
        log.info("%s received: closing", received.name)
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
        task.cancel()

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, on_signal, sig)
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise  # this coroutine is being cancelled itself, not only the bot by a signal
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))


async def run_bot() -> int:
    settings = load_settings(require_token=True)
    configure_logging(settings.log_level)
    # From here on a signal closes whatever is open, even while the catalogs and the database are checked.
    await run_until_signalled(serve(settings))
    return 0


async def serve(settings: Settings) -> None:
    import discord

    from core.clock import SystemClock
    from discord_app.bot import make_bot
    from services.infra.container import build_services

    clock = SystemClock()
    # Catalogs and the database are checked before connecting, so a bad file fails fast and plainly.
    services = await build_services(settings, clock)
    bot = make_bot(settings, clock, services=services, freeze_gc=True)
    try:
        # Leaving the block closes the bot: no new work, queued writes committed, last heartbeat, database
        # closed, then Discord (discord_app/bot.py).
        async with bot:
            await bot.start(settings.discord_token)
    except discord.LoginFailure:
        raise SettingsError(
            "Invalid setting DISCORD_TOKEN: Discord refused it. Reset the token in the developer portal "
            "(Bot tab) and put the new one in .env."
        ) from None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.sandbox:
            from sandbox.main import run_sandbox

            return asyncio.run(run_sandbox(script=args.script, db_path=args.db, seed=args.seed))
        if args.script or args.db or args.seed is not None:
            print("--script, --db and --seed only apply to --sandbox.", file=sys.stderr)
            return 2
        return asyncio.run(run_bot())
    except (SettingsError, CatalogError) as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
