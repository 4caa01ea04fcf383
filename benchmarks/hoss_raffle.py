"""What the HOSS raffle's draw costs: the pure commit–reveal draw over 100,000 tickets (2,000 winners),
and the whole 20:00 unit on a SQLite file (read the tickets, draw, credit every winner through the
ledger, mark the raffle drawn, queue the posts) for 100,000 tickets.

    python -m benchmarks.hoss_raffle [--tickets 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock, to_db
from engine import fair_draw
from engine.hoss import split
from services.hoss.gold import GOLD
from services.hoss.raffle import RaffleService
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from store.migrate import migrate

PARIS = ZoneInfo("Europe/Paris")
NOON = datetime(2026, 1, 5, 11, 0, tzinfo=UTC)
GUILD = 1


def pure_draw(tickets: int, runs: int) -> list[float]:
    entries = [f"{n}:{10_000 + n}" for n in range(1, tickets + 1)]
    winners = split(tickets).winners
    times = []
    for run in range(runs):
        seed = f"{random.Random(run).getrandbits(256):064x}"
        started = time.perf_counter()
        fair_draw.draw(seed, entries, winners)
        times.append(time.perf_counter() - started)
    return times


async def service_draw(tickets: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as scratch:
        db = Database(Path(scratch) / "bench.sqlite3")
        await db.open()
        try:
            await migrate(await db.raw_writer())
            clock = ManualClock(NOON)
            scheduler = Scheduler(db, clock, PARIS)
            raffle = RaffleService(db, clock, random.Random(1), scheduler, registry=GameRegistry())
            await raffle.window(GUILD, 1)  # creates the day's raffle and its 20:00 job

            def fill(conn: Connection) -> None:
                now = to_db(NOON)
                conn.executemany(
                    "INSERT INTO players (id, created_at) VALUES (?, ?)",
                    [(10_000 + n, now) for n in range(1, tickets + 1)],
                )
                conn.executemany(
                    "INSERT INTO hoss_raffle_tickets (guild_id, day, number, player_id, bought_at)"
                    " VALUES (?, '2026-01-05', ?, ?, ?)",
                    [(GUILD, n, 10_000 + n, now) for n in range(1, tickets + 1)],
                )

            await db.write(fill)
            clock.set(datetime(2026, 1, 5, 19, 0, tzinfo=UTC))
            started = time.perf_counter()
            fired = await scheduler.run_due()
            elapsed = time.perf_counter() - started
            assert fired == 1
            record = await raffle.latest(GUILD)
            assert record is not None
            assert record.tickets == tickets
            paid = await db.read(lambda conn: sum(ledger.balance(conn, w, GOLD) for w in record.winners))
            assert paid == record.share * len(record.winners)
            await scheduler.stop()
            return elapsed, len(record.winners)
        finally:
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tickets", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pure = pure_draw(args.tickets, args.runs)
    print(
        f"pure draw, {args.tickets:,} tickets: median {statistics.median(pure) * 1000:.1f} ms over {args.runs} runs"
    )
    units = [asyncio.run(service_draw(args.tickets)) for _ in range(args.runs)]
    times = [elapsed for elapsed, _ in units]
    print(
        f"20:00 unit, {args.tickets:,} tickets, {units[0][1]:,} winners credited: "
        f"median {statistics.median(times) * 1000:.0f} ms over {args.runs} runs"
    )


if __name__ == "__main__":
    main()
