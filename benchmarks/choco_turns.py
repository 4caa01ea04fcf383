"""What a Chocobataille turn costs: in the engine alone, and as the referee service declares it.

Both players play the fixed `greedy_steps` policy with Bronze decks from the real catalog (wizards,
effect wizards and pure effects), so the figures measure the rules and the service, not a strategy.

- Engine: whole games (`--games`, seeds 0..n-1) of `Turn` declarations; per turn: the wall time of
  `apply(Turn)` (validation of every step, the end of the turn, the next draw).
- Service: the same games through `ChocoGames.declare` on a SQLite file (WAL, synchronous=FULL, one
  writer): per declaration, the whole use case (load the row, engine, version-guarded save, log, the
  referee's post and the next hand in the outbox, the deadline jobs). Also the stored state's size.

    python -m benchmarks.choco_turns [--games 40] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock, to_db
from engine.choco import ENGINE
from engine.choco.catalog import ChocoCatalog
from engine.choco.policy import greedy_steps
from engine.choco.state import Prepare, Summon, Turn
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.choco.decks import ChocoDecks
from services.choco.games import ChocoGames
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from store.migrate import migrate

GRANT = ledger.Movement("bench.grant")
GUILD, CHANNEL = 1, 2


def bronze_deck(catalog: ChocoCatalog, rng: random.Random) -> list[str]:
    bronze = sorted(c.id for c in catalog.cards if c.rarity in ("bronze_1", "bronze_2"))
    pool = [card for card in bronze for _ in range(2)]
    return sorted(rng.sample(pool, 24))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def engine_run(catalog: ChocoCatalog, games: int) -> list[float]:
    times: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        players = [
            PlayerSetup(seat=s, player_id=s + 1, deck=tuple(bronze_deck(catalog, rng))) for s in (0, 1)
        ]
        state = ENGINE.new_game(players, seed, {CATALOG_OPTION: catalog})
        for seat in (0, 1):
            card = next(c for c in state.sides[seat].hand if not c.pure)
            state, _ = ENGINE.apply(state, seat, Prepare(card=card.uid, line="front"))
        while not state.finished:
            seat = state.active
            turn = Turn(steps=tuple(greedy_steps(state, seat)))
            started = time.perf_counter()
            state, _ = ENGINE.apply(state, seat, turn)
            times.append((time.perf_counter() - started) * 1000)
    return times


async def service_run(catalog: ChocoCatalog, games: int, folder: Path) -> tuple[list[float], int]:
    db = Database(folder / "bench.sqlite3")
    await db.open()
    await migrate(await db.raw_writer())
    clock = ManualClock()
    registry = GameRegistry()  # no starting wallets: the turns need none
    service = ChocoGames(
        db, clock, catalog, random.Random(1), Scheduler(db, clock, ZoneInfo("UTC")), registry=registry
    )
    decks = ChocoDecks(db, clock, catalog, registry=registry)
    times: list[float] = []
    sizes: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        a, b = 1000 + 2 * seed, 1001 + 2 * seed
        for player in (a, b):
            deck = bronze_deck(catalog, rng)
            now = clock.now()

            def unit(
                conn: Connection, player: int = player, deck: list[str] = deck, now: datetime = now
            ) -> None:
                ensure_player(conn, player, now, registry)
                conn.execute(
                    "UPDATE players SET created_at = ? WHERE id = ?",
                    (to_db(now - timedelta(days=60)), player),
                )
                for card in deck:
                    ledger.mint_card(conn, now, player, "choco", card, GRANT, {})

            await db.write(unit)
            await decks.save(player, "bronze", deck)
        made = await service.challenge(GUILD, CHANNEL, a, b, "bronze", key=f"bench-{seed}")
        found = await service.answer(made.id, b, True)
        assert found.game_id is not None
        game = await service.open_thread(found.game_id, None)
        for player in (a, b):
            card = next(c for c in game.state.sides[game.seat_of(player)].hand if not c.pure)
            await service.declare(game.id, player, [Summon(card=card.uid, line="front")])
        game = await service.get(game.id)
        while game.status == "live":
            steps = greedy_steps(game.state, game.state.active)
            actor = game.seats[game.state.active]
            assert actor is not None  # a friendly game between two players: no seat is the bot's
            started = time.perf_counter()
            result = await service.declare(game.id, actor, list(steps))
            if result.status != "played":
                raise RuntimeError(f"game {game.id}: the policy's turn was {result.status}")
            times.append((time.perf_counter() - started) * 1000)
            game = await service.get(game.id)
            sizes.append(len(ENGINE.to_json(game.state)))
    await db.close()
    return times, int(statistics.median(sizes))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    catalog = load_catalog(DATA_DIR / "choco.json", ChocoCatalog)
    engine_p50, engine_p99, turns, service_p50, service_p99, size = [], [], [], [], [], 0
    for _ in range(args.runs):
        times = engine_run(catalog, args.games)
        engine_p50.append(statistics.median(times))
        engine_p99.append(percentile(times, 0.99))
        turns.append(len(times) / args.games)
        with tempfile.TemporaryDirectory() as folder:
            served, size = asyncio.run(service_run(catalog, args.games, Path(folder)))
        service_p50.append(statistics.median(served))
        service_p99.append(percentile(served, 0.99))
    print(f"games per run: {args.games}, turns per game (median of runs): {statistics.median(turns):.1f}")
    print(
        f"engine apply(Turn):     p50 {statistics.median(engine_p50):.3f} ms  p99 {statistics.median(engine_p99):.3f} ms"
    )
    print(
        f"service declare (SQLite): p50 {statistics.median(service_p50):.2f} ms  p99 {statistics.median(service_p99):.2f} ms"
    )
    print(f"stored state (median): {size:,} bytes of JSON")


if __name__ == "__main__":
    main()
