"""One bot process of a fleet sharing one PostgreSQL database, for tests/postgresql/test_fleet_processes.py.

Served like the crash test's worker (tests/services/store/crash_worker.py `serve`: one forked life per line of
JSON on stdin, SIGUSR1 SIGKILLs the life). A life opens the database the way the bot does and runs what a
bot process runs beside the commands: its heartbeat (every `beat` seconds), the scheduler's dispatcher
(a `fleet.reward` job credits a reward and posts in one of the channels) and the outbox deliverer's own
loop, which sleeps until the next due item or a wake-up (a commit here, or another process's NOTIFY).
At the wall-clock time `go_at` it starts its dispatcher and deliverer, and its share of HOSS purchases,
sales and fusions, all at once.

Lines for the parent: `ready`; `beat T` after each heartbeat committed (T: when it started, in epoch
seconds); `ack LABEL ok|replayed|refused:KEY` once an operation returned; `window` when a post was
created and is about to be marked sent (the parent may kill the life right then); `takeover N T` when
this process's beat started at T released N outbox items of a silent peer; `done` when no job is due
and no item is pending in the whole database, with at least `until_sent` posts sent.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.clock import SystemClock
from core.errors import DomainError
from core.settings import Settings
from discord_app.delivery import Deliverer
from engine.hoss.catalog import HossCatalog
from services.hoss.fusion import FusionService
from services.hoss.sale import HossSale
from services.hoss.shop import HossShop
from services.infra import heartbeat, ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.container import build_services
from services.infra.heartbeat import Heartbeat
from services.infra.messages import Target
from services.infra.outbox import enqueue
from services.infra.scheduler import Job
from store.connection import Connection
from tests.services.store.crash_worker import emit, instrument, say, serve

KIND = "fleet.reward"
CURRENCY = "fleet_gold"
BEATING = [0.0]  # when the beat under way started, in seconds since the epoch
IDLE_CHECK = 0.05  # seconds between two looks at whether the fleet's work is all done


def reward(channels: list[int]) -> Callable[[Connection, Job, datetime], None]:
    def handler(conn: Connection, job: Job, now: datetime) -> None:
        n, player = int(job.payload["n"]), int(job.payload["player"])
        ledger.credit(conn, now, player, CURRENCY, 1, ledger.Movement(KIND, f"job-{n}"))
        enqueue(conn, now, Target("channel", channels[n % len(channels)], guild_id=None), say(f"job-{n}"))

    return handler


class TakeoverLines(logging.Handler):
    """The heartbeat's "took over N outbox item(s)" warning, as a line for the parent."""

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.name == heartbeat.__name__ and len(args) == 3:
            emit(f"takeover {args[2]} {BEATING[0]}")


async def operate(spec: dict[str, Any], shop: HossShop, sale: HossSale, fusion: FusionService) -> None:
    """This process's share of the operations, all at once from `go_at`: each reports how it ended."""

    async def one(label: str, call: Awaitable[Any]) -> None:
        try:
            result = await call
        except DomainError as exc:
            emit(f"ack {label} refused:{exc.key}")
            return
        emit(f"ack {label} {'replayed' if getattr(result, 'replayed', False) else 'ok'}")

    calls = []
    for label, kind, player, target, key in spec["ops"]:
        if kind == "buy":
            calls.append(one(label, shop.buy(player, 1, key=key)))
        elif kind == "sell":
            calls.append(one(label, sale.sell(player, target, key=key)))
        else:
            calls.append(one(label, fusion.fuse(player, target, key=key)))
    await asyncio.sleep(max(spec["go_at"] - SystemClock().now().timestamp(), 0))
    await asyncio.gather(*calls)


def fleet_idle(conn: Connection, until_sent: int) -> bool:
    """Every storm job fired and every post sent, in the whole database (whichever process did it). Recurring
    series (the weekly recap) always have a next occurrence waiting: only the storm's kind is counted."""
    pending = conn.execute("SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()[0]
    sent = conn.execute("SELECT COUNT(*) FROM outbox WHERE state = 'sent'").fetchone()[0]
    due = conn.execute("SELECT COUNT(*) FROM jobs WHERE state = 'due' AND kind = ?", (KIND,)).fetchone()[0]
    return int(pending) == 0 and int(due) == 0 and int(sent) >= until_sent


async def life(spec: dict[str, Any]) -> None:
    discord.http.Route.BASE = spec["rest_base"]
    logging.getLogger(heartbeat.__name__).addHandler(TakeoverLines())
    clock = SystemClock()
    settings = Settings(_env_file=None, discord_token=spec["token"], database_url=spec["url"])
    services = await build_services(settings, clock)
    instrument(spec)
    services.scheduler.on(KIND, reward(spec["channels"]))
    catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    db = services.db
    shop = HossShop(db, clock, catalog, random.Random(), registry=services.registry)
    sale, fusion = HossSale(db, clock, catalog), FusionService(db, clock, catalog, random.Random())
    heart = Heartbeat(db, clock, period=timedelta(seconds=spec["beat"]))

    async def beat_forever() -> None:
        while True:
            BEATING[0] = clock.now().timestamp()  # about the `now` the beat writes (and judges its peers by)
            await heart.beat()
            emit(f"beat {BEATING[0]}")
            await asyncio.sleep(spec["beat"])

    client = discord.Client(intents=discord.Intents.none())
    await client.login(spec["token"])

    async def ready() -> None:  # logged in for REST only: no gateway, so never "ready" otherwise
        return None

    client.wait_until_ready = ready  # type: ignore[method-assign]
    deliverer = Deliverer(client, services)
    beating = asyncio.create_task(beat_forever())
    emit("ready")
    # The storm is due already: a process whose dispatcher and deliverer started first (the other one still
    # importing, on a loaded machine) would fire and send all of it alone, and the kill test would find
    # nothing to kill. Both start their work at `go_at`.
    await asyncio.sleep(max(spec["go_at"] - clock.now().timestamp(), 0))
    deliverer.start()
    await services.scheduler.start()
    await operate(spec, shop, sale, fusion)
    idle = partial(fleet_idle, until_sent=spec["until_sent"])
    while True:
        if await db.read(idle):
            break
        await asyncio.sleep(IDLE_CHECK)
    emit("done")
    beating.cancel()
    await deliverer.stop()
    await heart.beat()
    await services.close()
    await client.close()


if __name__ == "__main__":
    serve(life)
