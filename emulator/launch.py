"""Runs bot.py exactly as `python bot.py` does, with discord.py pointed at an emulator (tests, benchmarks).

The emulator lives in the test's or the benchmark's own process; this process only learns its address from
EMULATOR_REST_BASE and EMULATOR_GATEWAY, the same two values `DiscordEmulator.install()` sets in-process.
Only this launcher reads them (and benchmarks/bare_process.py, a bare bot started the same way, through
`point_at_emulator`): production code has no way to move Discord's address.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import discord.gateway
import discord.http
import yarl

BOT = Path(__file__).resolve().parents[1] / "bot.py"


def point_at_emulator() -> None:
    discord.http.Route.BASE = os.environ["EMULATOR_REST_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["EMULATOR_GATEWAY"])


def main() -> None:
    point_at_emulator()
    sys.argv = [str(BOT), *sys.argv[1:]]
    runpy.run_path(str(BOT), run_name="__main__")


if __name__ == "__main__":
    main()
