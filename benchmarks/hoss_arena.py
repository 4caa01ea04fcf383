"""What the HOSS Arena costs with 10,000 registered players in one server: an opponent's draw (p50/p99),
the hourly ranking, and the Sunday-midnight close that pays every participant in one transaction (the
ledger checked to the gold).

    python -m benchmarks.hoss_arena [--players 10000] [--draws 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock, to_db
from engine import fair_draw
from engine.hoss import TOP_PRIZES, HossCatalog
from services.hoss.arena.seasons import CLOSE_JOB, RANKING_JOB, ArenaService
from services.hoss.decks import DeckService
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.scheduler import Job, Scheduler
from store.connection import Connection
from store.db import Database
from store.migrate import migrate

PARIS = ZoneInfo("Europe/Paris")
TUESDAY = datetime(2026, 1, 6, 11, 0, tzinfo=UTC)
GUILD, SEASON = 1, "2026-01-05"


def fill(conn: Connection, players: int) -> None:
    now = to_db(TUESDAY)
    rng = random.Random(3)
    seed = "5e" * 32
    conn.execute(
        "INSERT INTO hoss_arena_seasons (guild_id, season, seed, commitment, opened_at) VALUES (?, ?, ?, ?, ?)",
        (GUILD, SEASON, seed, fair_draw.commitment(seed), now),
    )
    conn.executemany(
        "INSERT INTO players (id, created_at) VALUES (?, ?)", [(p, now) for p in range(1, players + 1)]
    )
    conn.executemany(
        "INSERT INTO hoss_arena_entries (guild_id, season, player_id, points, attack_wins, reached_at,"
        " registered_at, saved_at, deck_a, deck_b) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', '{}')",
        [
            (GUILD, SEASON, p, rng.randrange(200), rng.randrange(50), now, now, now)
            for p in range(1, players + 1)
        ],
    )


def job(kind: str) -> Job:
    return Job(0, kind, TUESDAY, {"guild": GUILD, "season": SEASON}, None, 0)


async def run(players: int, draws: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        db = Database(Path(scratch) / "bench.sqlite3")
        await db.open()
        try:
            await migrate(await db.raw_writer())
            clock = ManualClock(TUESDAY)
            scheduler = Scheduler(db, clock, PARIS)
            catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
            registry = GameRegistry()  # no starting wallets: the draws need none
            decks = DeckService(db, clock, catalog, registry=registry)
            arena = ArenaService(db, clock, random.Random(1), scheduler, decks, registry=registry)
            await db.write(lambda conn: fill(conn, players))

            started = time.perf_counter()
            await db.write(lambda conn: arena.on_ranking(conn, job(RANKING_JOB), clock.now()))
            ranking = time.perf_counter() - started
            print(f"hourly ranking, {players:,} players: {ranking * 1000:.0f} ms")

            times = []
            for attacker in random.Random(4).sample(range(1, players + 1), draws):
                started = time.perf_counter()
                await arena.draw_opponent(GUILD, attacker)
                times.append(time.perf_counter() - started)
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(
                f"opponent draw, {draws:,} attackers: p50 {statistics.median(times) * 1000:.2f} ms, "
                f"p99 {p99 * 1000:.2f} ms"
            )

            clock.advance(timedelta(days=6))
            started = time.perf_counter()
            await db.write(lambda conn: arena.on_close(conn, job(CLOSE_JOB), clock.now()))
            close = time.perf_counter() - started
            paid = await db.read(
                lambda conn: conn.execute(
                    "SELECT COALESCE(SUM(delta), 0), COUNT(*) FROM ledger WHERE reason = 'hoss.arena.reward'"
                ).fetchone()
            )
            expected = sum(TOP_PRIZES) + 150 * (players - len(TOP_PRIZES))
            assert tuple(paid) == (expected, players), (tuple(paid), expected)
            print(
                f"Sunday close, {players:,} participants paid in one transaction: {close * 1000:.0f} ms "
                f"(ledger: {paid[0]:,} gold in {paid[1]:,} rows, as the table says)"
            )
            await scheduler.stop()
        finally:
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--draws", type=int, default=1_000)
    args = parser.parse_args()
    asyncio.run(run(args.players, args.draws))


if __name__ == "__main__":
    main()
