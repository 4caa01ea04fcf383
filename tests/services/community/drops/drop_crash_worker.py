"""Drops under load, in a process the drops' crash test kills with SIGKILL and starts again.

Each line of JSON on stdin starts one life, forked as `tests/services/store/crash_worker.py` does (its `serve`).
A life opens the database the way the bot does, catches up on the jobs that fell due while it was dead,
then opens drops `start..total-1` one by one (each in a write unit behind an idempotency key, in the
games channel of the emulator the parent runs), has three players click « Prendre » on each, and lets the
real scheduler draw them (a window of 0.3 s) and the real deliverer post and edit them. A close that runs
more than `late` seconds after its window (the life was dead meanwhile) voids the drop.

It writes `ready`, `ack N` once drop N was opened and entered, and `done` when nothing is left to draw or
deliver.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest.mock import patch

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from core.clock import SystemClock, to_db
from core.settings import Settings
from discord_app.delivery import Deliverer
from services.community.drops import service as drop_service
from services.infra.container import Services, build_services
from services.infra.players import ensure_player
from store.idempotency import once
from tests.services.store.crash_worker import emit, serve

GAMES = ("hoss", "immortals", "choco", "pillz", "dinocard")
WINDOW = timedelta(seconds=0.3)
PACE = 0.05


async def setup(spec: dict[str, Any], services: Services) -> None:
    now = services.clock.now()

    def unit(conn: Any) -> None:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, games_channel_id, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (spec["guild"], spec["channel"], to_db(now)),
        )
        for player in spec["players"]:
            ensure_player(conn, player, now, services.registry)

    await services.db.write(unit)


async def open_and_enter(spec: dict[str, Any], services: Services, n: int) -> None:
    drops = services.drops
    now = services.clock.now()

    def unit(conn: Any) -> int:
        def work() -> int:
            return drops.open_drop(conn, now, spec["guild"], spec["channel"], GAMES[n % len(GAMES)])

        drop_id, _ = once(conn, f"drop-{n}", now, work)
        return int(drop_id)

    drop_id = await services.db.write(unit)
    for player in entrants(spec, n):
        try:
            await drops.enter(drop_id, spec["guild"], player)
        except drop_service.DropClosed:
            break  # a replayed drop whose window passed while this life was dead
    emit(f"ack {n}")


def entrants(spec: dict[str, Any], n: int) -> list[int]:
    """Three players per drop, never the same ones: nobody reaches the day's limit of wins."""
    players: list[int] = spec["players"]
    return players[3 * n : 3 * n + 3]


async def drain(services: Services, deliverer: Deliverer) -> None:
    while True:
        open_left = await services.db.read(
            lambda conn: conn.execute("SELECT COUNT(*) FROM drops WHERE status = 'open'").fetchone()[0]
        )
        fired = await services.scheduler.run_due()
        await deliverer.flush()
        due = await services.outbox.next_due_at()
        if not open_left and not fired and due is None:
            return
        await asyncio.sleep(0.05)


async def main(spec: dict[str, Any]) -> None:
    discord.http.Route.BASE = spec["rest_base"]
    patch.object(drop_service, "LATE_CLOSE", timedelta(seconds=spec["late"])).start()
    settings = Settings(_env_file=None, discord_token=spec["token"], database_path=Path(spec["db"]))
    services = await build_services(settings, SystemClock(), rng_seed=spec["seed"])
    services.drops.window = WINDOW
    await setup(spec, services)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(spec["token"])
    deliverer = Deliverer(client, services)
    await services.scheduler.start()  # draws what fell due while this life was dead
    emit("ready")
    stop = asyncio.Event()

    async def deliver() -> None:
        while not stop.is_set():
            await deliverer.flush()
            await asyncio.sleep(0.01)

    delivery = asyncio.create_task(deliver())
    for n in range(spec["start"], spec["total"]):
        await open_and_enter(spec, services, n)
        await asyncio.sleep(PACE)
    stop.set()
    await delivery
    await drain(services, deliverer)
    emit("done")
    await client.close()
    await services.close()


if __name__ == "__main__":
    serve(main)
