"""What the Pillz AI and a practice move cost: a lab duel (the AI on both seats, engine/pillz/lab.py), the
AI's decision time by round, and `PillzDuels.play` in a practice duel (the player's move, then the AI's
search in a worker thread and its move in a second transaction) on a SQLite file.

Decks are drawn from the real catalog (data/pillz.json) by the engine's `sample_setup`; the AI plays
both seats for the decision times; the lab's duels are those of benchmarks/lab.py's deck (the AI's deck
the practice duel's mirror of it, drawn per seed); in the service runs the player plays the even-split
policy. The lab duels are timed beside benchmarks/lab.py's pure-Python loop (and the HOSS reference battle, printed):
the duel's time scaled by `REFERENCE_LOOP_MS` / today's loop is what it would cost on the README's
reference machine (benchmarks/lab.py says how that figure was calibrated).

    python -m benchmarks.pillz_ai [--duels 150] [--runs 3] [--lab-only]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

from benchmarks.lab import REFERENCE_LOOP_MS, at_reference, python_loop, reference_ms
from core.clock import ManualClock
from engine.pillz import ENGINE
from engine.pillz.ai import choose, even_split_policy
from engine.pillz.catalog import PillzCatalog
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.games import GameRegistry
from services.infra.scheduler import Scheduler
from services.pillz import lab as pillz_lab
from services.pillz.duels import PillzDuels
from store.db import Database
from store.migrate import migrate


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lab_ms(catalog: PillzCatalog, duels: int) -> tuple[float, float]:
    """Milliseconds per duel of a lab of benchmarks/lab.py's deck (the first 8 characters) against the AI:
    wall time, then the process's CPU time (what a loaded shared machine changes least)."""
    deck = tuple(sorted(c.id for c in catalog.cards if not c.leader)[:8])
    started, cpu = time.perf_counter(), time.process_time()
    pillz_lab.play(catalog, deck, pillz_lab.AI, range(duels))
    return (time.perf_counter() - started) * 1000 / duels, (time.process_time() - cpu) * 1000 / duels


def python_loop_cpu_ms() -> float:
    """benchmarks/lab.py's pure-Python loop (2 million multiplications) in CPU milliseconds: the day's
    speed of this machine's core, to compare runs of different days."""
    cpu = time.process_time()
    python_loop()
    return (time.process_time() - cpu) * 1000


def decisions(catalog: PillzCatalog, duels: int) -> dict[int, list[float]]:
    times: dict[int, list[float]] = {1: [], 2: [], 3: [], 4: []}
    for seed in range(duels):
        setup = ENGINE.sample_setup(random.Random(seed), catalog)
        state = ENGINE.new_game(setup.players, seed, setup.options)
        rng = random.Random(seed)
        while not state.finished:
            seat = ENGINE.current_players(state)[0]
            started = time.perf_counter()
            action = choose(state, seat, rng)
            times[state.round].append((time.perf_counter() - started) * 1000)
            state, _ = ENGINE.apply(state, seat, action)
    return times


async def service(catalog: PillzCatalog, duels: int, folder: Path) -> list[float]:
    db = Database(folder / "bench.sqlite3")
    await db.open()
    await migrate(await db.raw_writer())
    clock = ManualClock()
    scheduler = Scheduler(db, clock, ZoneInfo("UTC"))
    service = PillzDuels(db, clock, catalog, random.Random(1), scheduler, registry=GameRegistry())
    times: list[float] = []
    for n in range(duels):
        player = 1000 + n
        duel = await service.practice(1, 2, player, key=f"bench-{n}")
        while duel.status == "live":
            assert duel.state is not None
            assert duel.to_act() == [0]
            move = even_split_policy(duel.state, 0, random.Random(n))
            started = time.perf_counter()
            duel = await service.play(duel.id, player, duel.version, move.card, move.pillz, guild=1)
            times.append((time.perf_counter() - started) * 1000)
    await db.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duels", type=int, default=150)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lab-only", action="store_true", help="only the lab duels")
    args = parser.parse_args()
    catalog = load_catalog(DATA_DIR / "pillz.json", PillzCatalog)
    wall, cpu, ref, loop = [], [], [], []
    load = os.getloadavg()[0]
    for _ in range(args.runs):
        ref.append(reference_ms())
        duel_wall, duel_cpu = lab_ms(catalog, args.duels)
        wall.append(duel_wall)
        cpu.append(duel_cpu)
        loop.append(python_loop_cpu_ms())
    duel, used, reference = statistics.median(wall), statistics.median(cpu), statistics.median(ref)
    loop_ms = statistics.median(loop)
    print(
        f"lab duel: {duel:.2f} ms wall, {used:.2f} ms CPU (medians of {args.runs} runs of {args.duels}), "
        f"reference battle {reference:.2f} ms, pure-Python loop {loop_ms:.0f} ms CPU, load "
        f"average {load:.1f} -> {os.getloadavg()[0]:.1f}; at the reference speed (loop {REFERENCE_LOOP_MS:g} ms): "
        f"{at_reference(duel, loop_ms):.2f} ms wall, {at_reference(used, loop_ms):.2f} ms CPU"
    )
    if args.lab_only:
        return
    by_round: dict[int, list[tuple[float, float]]] = {r: [] for r in (1, 2, 3, 4)}
    played: list[tuple[float, float]] = []
    for _ in range(args.runs):
        for rnd, times in decisions(catalog, args.duels).items():
            by_round[rnd].append((statistics.median(times), percentile(times, 0.99)))
        with tempfile.TemporaryDirectory() as folder:
            moves = asyncio.run(service(catalog, args.duels, Path(folder)))
        played.append((statistics.median(moves), percentile(moves, 0.99)))
    print(f"{args.duels} duels per run, medians of {args.runs} runs")
    for rnd, figures in by_round.items():
        p50 = statistics.median(f[0] for f in figures)
        p99 = statistics.median(f[1] for f in figures)
        print(f"AI decision, round {rnd}: p50 {p50:.2f} ms  p99 {p99:.2f} ms")
    p50 = statistics.median(f[0] for f in played)
    p99 = statistics.median(f[1] for f in played)
    print(f"practice move (play + the AI's answer): p50 {p50:.2f} ms  p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
