"""The bot's write paths under load, in a process the crash test kills with SIGKILL and starts again.

Each line of JSON read on stdin starts one life, forked from this process so that a restart does not pay
the imports again (see `serve`); the child starts with nothing open, as a restarted bot would. A life
opens the database the way the bot does, catches up on what fell due while it was dead, then runs
operations `start..total-1` four at a time (paced, except in the last life), each one write unit behind
an idempotency key: a purchase (a debit), a reward job due at once, a channel post, and now and then a
DM (one recipient refuses DMs, so that goes to the private button fallback). Meanwhile the real
scheduler fires the jobs (each credits a reward and posts) and the real deliverer sends the outbox to
the Discord emulator the parent runs.

A life writes one line per event for the parent: `ready`, `ack N` once operation N committed,
`window` when a post was created and is about to be marked sent, or its record left riding with the next
commit (the parent may kill it right then),
and `done` when everything was delivered and nothing is due.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Coroutine, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from unittest.mock import patch

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from core.clock import Clock, SystemClock
from core.i18n import catalogs
from core.settings import Settings
from discord_app.delivery import Deliverer
from services.infra import ledger
from services.infra.container import Services, build_services
from services.infra.games import GameRegistry, discover_specs
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import Outbox, OutboxItem, enqueue
from services.infra.players import ensure_player
from services.infra.scheduler import Job, schedule
from store.connection import Connection
from store.idempotency import once

CURRENCY = "crash_gold"
GRANT = 1_000_000
WRITERS = 4
PACE = 0.1  # seconds between two operations of a writer: about as fast as the posts can leave


def emit(line: str) -> None:
    """One write per line: a life killed in the middle of a `print` (text, then newline) would leave half
    a line for the next one to be glued to."""
    os.write(1, f"{line}\n".encode())


def say(text: str) -> MessageSpec:
    return MessageSpec(content=Text.raw(text))


def instrument(spec: dict[str, Any]) -> None:
    """Widen the window between a post's creation and its record (`mark_all_sent`), and announce it, so the parent can
    kill a life right there; without `nonce`, measure the code before the fix. The patches are never
    undone: a life ends with its process."""
    if not spec["nonce"]:  # the measurement without the fix: discord.py draws a random nonce per send
        patch.object(OutboxItem, "nonce", lambda self, purpose="post": None).start()
    real_mark_all_sent = Outbox.mark_all_sent

    async def mark_all_sent(self: Outbox, sent: Sequence[tuple[int, int]]) -> int:
        for _ in sent:  # one window per post recorded
            emit("window")
        if sent:
            await asyncio.sleep(spec["window_pause"])  # a slow disk, widened so that kills land here
        return await real_mark_all_sent(self, sent)

    real_mark_all_sent_soon = Outbox.mark_all_sent_soon

    def mark_all_sent_soon(self: Outbox, sent: Sequence[tuple[int, int]], within: timedelta) -> Any:
        for _ in sent:  # the record left riding with the next commit: a kill now finds it not yet written
            emit("window")
        if not sent or not spec["window_pause"]:
            return real_mark_all_sent_soon(self, sent, within)

        async def widened() -> int:
            # The next commit may come within a millisecond (a storm of operations): without the pause a
            # kill sent at the window often landed once the record had ridden with it, and found no post
            # left to send again (the PostgreSQL takeover test failed about 1 run in 5).
            await asyncio.sleep(spec["window_pause"])
            return await real_mark_all_sent_soon(self, sent, within)

        return asyncio.ensure_future(widened())

    patch.object(Outbox, "mark_all_sent", mark_all_sent).start()
    patch.object(Outbox, "mark_all_sent_soon", mark_all_sent_soon).start()


def reward_job(spec: dict[str, Any]) -> Callable[[Connection, Job, datetime], None]:
    channel, players = spec["channel"], spec["players"]

    def reward(conn: Connection, job: Job, now: datetime) -> None:
        op = int(job.payload["op"])
        ledger.credit(conn, now, players[op % 2], CURRENCY, 1, ledger.Movement("crash.reward", f"job-{op}"))
        enqueue(conn, now, Target("channel", channel, guild_id=None), say(f"job-{op}"))

    return reward


def grant(spec: dict[str, Any], clock: Clock, registry: GameRegistry) -> Callable[[Connection], None]:
    def unit(conn: Connection) -> None:
        now = clock.now()

        def work() -> None:
            for player in (*spec["players"], spec["refuser"]):
                ensure_player(conn, player, now, registry)
                ledger.credit(conn, now, player, CURRENCY, GRANT, ledger.Movement("crash.grant"))

        once(conn, "crash-grant", now, work)

    return unit


def operation(spec: dict[str, Any], clock: Clock, n: int) -> Callable[[Connection], tuple[int, bool]]:
    """Operation `n`: a purchase, a reward job due at once, a post, and now and then a DM."""
    channel, players, refuser = spec["channel"], spec["players"], spec["refuser"]

    def unit(conn: Connection) -> tuple[int, bool]:
        now = clock.now()

        def work() -> int:
            player = players[n % 2]
            ledger.debit(conn, now, player, CURRENCY, 1 + n % 3, ledger.Movement("crash.buy", f"op-{n}"))
            schedule(conn, now, "crash.reward", now, {"op": n})
            enqueue(conn, now, Target("channel", channel, guild_id=None), say(f"op-{n}"))
            if n % 5 == 0:
                enqueue(conn, now, Target("dm", players[0], guild_id=None), say(f"dm-{n}"))
            if n % 7 == 0:
                enqueue(
                    conn,
                    now,
                    Target("dm", refuser, fallback_channel_id=channel, guild_id=None),
                    say(f"hand-{n}"),
                )
            return n

        return once(conn, f"op-{n}", now, work)

    return unit


async def run_operations(spec: dict[str, Any], services: Services, deliverer: Deliverer) -> None:
    """The operations four at a time while the deliverer sends, never cancelled in the middle of a send."""
    pending = iter(range(spec["start"], spec["total"]))

    async def writer() -> None:
        for n in pending:
            await services.db.write(operation(spec, services.clock, n))
            emit(f"ack {n}")
            await asyncio.sleep(PACE if spec["paced"] else 0)

    stop = asyncio.Event()

    async def deliver() -> None:
        while not stop.is_set():  # never cancelled in the middle of a send: only kills interrupt one
            await deliverer.flush(hold=True)  # as the bot's own passes: records ride with the next commit
            await asyncio.sleep(0.005)

    delivery = asyncio.create_task(deliver())
    await asyncio.gather(*(writer() for _ in range(WRITERS)))
    stop.set()
    await delivery


async def drain(services: Services, deliverer: Deliverer) -> None:
    """A job's post may be queued after the last operation: deliver and fire until nothing is left."""
    while (due := await services.outbox.next_due_at()) is not None or await services.scheduler.run_due():
        if due is not None:
            await services.clock.sleep_until(due, asyncio.Event())
        await deliverer.flush()


async def main(spec: dict[str, Any]) -> None:
    discord.http.Route.BASE = spec["rest_base"]
    settings = Settings(_env_file=None, discord_token=spec["token"], database_path=Path(spec["db"]))
    services = await build_services(settings, SystemClock())
    instrument(spec)
    services.scheduler.on("crash.reward", reward_job(spec))
    await services.db.write(grant(spec, services.clock, registry=services.registry))
    client = discord.Client(intents=discord.Intents.none())
    await client.login(spec["token"])
    deliverer = Deliverer(client, services)
    await services.scheduler.start()  # fires what fell due while this process was dead
    emit("ready")
    await run_operations(spec, services, deliverer)
    await drain(services, deliverer)
    emit("done")
    await client.close()
    await services.close()


def warm() -> None:
    """What a life would import or load on its first use, done once before the forks, so that a restart
    does not pay it again either: every game package (the container's `GameRegistry.discover()`, most of
    a life's CPU otherwise) and the message catalogs (the first message rendered loads them)."""
    discover_specs()
    catalogs()


def serve(life: Callable[[dict[str, Any]], Coroutine[Any, Any, None]] = main) -> None:
    """Fork one `life` per spec read on stdin, so a restart does not pay the imports again (`warm`), and
    print its exit status once it is gone. SIGUSR1 SIGKILLs the life: this process knows when its pid is still its
    own, the parent would not (a reaped pid may already belong to another process). The fleet's worker
    (tests/postgresql/fleet_worker.py) serves its own lives the same way."""
    alive: list[int] = []

    def kill_life(signum: int, frame: object) -> None:
        if alive:
            os.kill(alive[0], signal.SIGKILL)

    signal.signal(signal.SIGUSR1, kill_life)
    warm()
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGUSR1, signal.SIG_IGN)
            code = 0
            try:
                asyncio.run(life(json.loads(line)))
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        alive.append(pid)
        # Wait for the life's end without reaping it, then forget its pid, then reap: a SIGUSR1 that lands
        # in between kills a zombie of ours, never a pid reaped already (ProcessLookupError, or another's).
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        alive.clear()
        _, status = os.waitpid(pid, 0)
        emit(f"exit {status}")


if __name__ == "__main__":
    serve()
