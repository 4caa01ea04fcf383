"""Entry point: read the settings, then run the bot on Discord, or in the sandbox (`--sandbox`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from core.settings import SettingsError, load_settings
from services.catalogs import CatalogError


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


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))


async def run_bot() -> int:
    settings = load_settings(require_token=True)
    configure_logging(settings.log_level)

    import discord

    from core.clock import SystemClock
    from discord_app.bot import CardBot
    from services.container import build_services

    clock = SystemClock()
    # Catalogs and the database are checked before connecting, so a bad file fails fast and plainly.
    services = await build_services(settings, clock)
    bot = CardBot(settings, clock, services=services)
    try:
        async with bot:
            await bot.start(settings.discord_token)
    except discord.LoginFailure:
        raise SettingsError(
            "Invalid setting DISCORD_TOKEN: Discord refused it. Reset the token in the developer portal "
            "(Bot tab) and put the new one in .env."
        ) from None
    return 0


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
