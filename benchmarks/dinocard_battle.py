"""How fast Dinocard computes a whole battle in advance: ms per battle for two 100-card packs and for two
20-card packs, and memory over many battles.

Packs drawn by the engine's own sampler from the real catalog (two elements each, seeded), card tables
prepared once (`Stats`, as `new_game` caches them per card), the log on (it is the product), pinned to one
core. Each size plays `--battles` battles (seeds 0..n-1) per run, `--runs` times; the medians of the runs
are reported. Then the cost of the whole `new_game` (validation, tables, battle, the state model) for
reference, and memory over `--memory` sequential battles under tracemalloc (traced memory after 1,000 and
after all of them, after a garbage collection, and the peak).

Targets: median battle of two 100-card packs <= 2 ms, two 20-card packs <= 0.5 ms; memory flat.

    python -m benchmarks.dinocard_battle [--battles 2000] [--runs 3] [--memory 10000]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time
import tracemalloc

from engine.dinocard.battle import Battle
from engine.dinocard.catalog import DinocardCatalog
from engine.dinocard.engine import DinocardEngine
from engine.dinocard.sample import random_pack
from engine.dinocard.table import Stats, stats_of
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog

TARGETS_MS = {100: 2.0, 20: 0.5}
LIFE = (20, 20)
LONG_LIFE = (120, 120)


def tables(
    catalog: DinocardCatalog, size: int
) -> tuple[tuple[tuple[Stats, ...], ...], tuple[tuple[str, ...], ...]]:
    index = {card.id: card for card in catalog.cards}
    packs = tuple(random_pack(catalog, random.Random(size * 10 + seat), size) for seat in (0, 1))
    return tuple(tuple(stats_of(index[c]) for c in pack) for pack in packs), packs


def battle_ms(
    prepared: tuple[tuple[Stats, ...], ...], battles: int, life: tuple[int, int] = LIFE
) -> tuple[float, float, float]:
    """Median ms per battle, median steps and median phases over `battles` seeds."""
    sizes = (len(prepared[0]), len(prepared[1]))
    times, steps = [], []
    for seed in range(battles):
        start = time.perf_counter()
        result = Battle(prepared, sizes, (0, 0), life, 1, seed).run()
        times.append(time.perf_counter() - start)
        steps.append(len(result.log))
    return statistics.median(times) * 1000, statistics.median(steps), statistics.median(steps) / 3


def new_game_ms(catalog: DinocardCatalog, packs: tuple[tuple[str, ...], ...], battles: int) -> float:
    engine = DinocardEngine()
    players = [PlayerSetup(seat, seat + 1, pack) for seat, pack in enumerate(packs)]
    options = {CATALOG_OPTION: catalog}
    times = []
    for seed in range(battles):
        start = time.perf_counter()
        engine.new_game(players, seed, options)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def memory(prepared: tuple[tuple[Stats, ...], ...], battles: int) -> tuple[int, int, int]:
    sizes = (len(prepared[0]), len(prepared[1]))
    gc.collect()
    tracemalloc.start()
    after_1000 = 0
    for seed in range(battles):
        Battle(prepared, sizes, (0, 0), LIFE, 1, seed).run()
        if seed == 999:
            gc.collect()
            after_1000 = tracemalloc.get_traced_memory()[0]
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return after_1000, current, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memory", type=int, default=10_000)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    catalog = load_catalog(DATA_DIR / "dinocard.json", DinocardCatalog)
    missed = False
    for size, target in TARGETS_MS.items():
        prepared, packs = tables(catalog, size)
        runs = [battle_ms(prepared, args.battles) for _ in range(args.runs)]
        median = statistics.median(r[0] for r in runs)
        ok = median <= target
        missed |= not ok
        print(
            f"{size}-card packs: median {median:.3f} ms per battle (target <= {target} ms: "
            f"{'met' if ok else 'MISSED'}), runs {', '.join(f'{r[0]:.3f}' for r in runs)} ms, "
            f"median {runs[0][1]:.0f} steps ({runs[0][2]:.0f} phases)"
        )
        print(
            f"{size}-card packs: whole new_game (validation + battle + state) median "
            f"{new_game_ms(catalog, packs, min(args.battles, 500)):.3f} ms"
        )
    prepared, _ = tables(catalog, 100)
    longest = statistics.median(
        battle_ms(prepared, args.battles // 4, LONG_LIFE)[0] for _ in range(args.runs)
    )
    print(
        f"100-card packs, {LONG_LIFE[0]} life each (« Points de vie » at its maximum, the longest battles): "
        f"median {longest:.3f} ms per battle"
    )
    after_1000, after_all, peak = memory(prepared, args.memory)
    print(
        f"memory over {args.memory} battles of 100-card packs: {after_1000 / 1024:.1f} KiB traced after 1,000, "
        f"{after_all / 1024:.1f} KiB after all, peak {peak / 1024:.1f} KiB"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
