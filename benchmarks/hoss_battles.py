"""How fast the HOSS battle engine plays whole battles: battles per second, ms per battle, hits per second.

Reference matchups, real catalog (data/hoss.json), the fixed `simple_policy` on both seats (so the figures
measure the engine, not an AI), the log off, pinned to one core:

- "Maître Divin 5★": six complete lines (Rang 1, 2, 3, every path) at Divin 5★ against six other such
  lines, both sides with two buffs at Divin 5★ (the most expensive battles: evolution every round,
  statuses everywhere);
- "Rang 1 mixed": decks whose lines hold only their Rang 1, at mixed rarities and stars (the early game).

Each matchup plays `--battles` battles (seeds 0..n-1) per run, `--runs` times; the medians of the runs are
reported. Per battle: wall time of `simulate` on validated decks (`prepare` once). Resolved hits are the
engine's `hits` counter (attacks, status ticks, deflected hits): hits per second is a figure independent of
the balance (a longer battle has more hits). Then: the cost with the log on, memory over `--memory`
sequential battles under tracemalloc (traced memory after 1,000 and after all of them, after a garbage
collection, and the peak), and, when a target is missed (or with `--profile`), the 15 functions with the
most own time under cProfile on the reference matchup.

Targets (log off): median reference battle <= 5 ms; >= 50,000 resolved hits per second on one core.

    python -m benchmarks.hoss_battles [--battles 2000] [--runs 3] [--memory 10000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import random
import statistics
import time
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.hoss.ai import simple_policy
from engine.hoss.catalog import RARITIES, HossCatalog
from engine.hoss.deck import setup_extra
from engine.hoss.sample import buffs_of, full_deck, lines_of
from engine.hoss.simulate import prepare, simulate
from engine.hoss.state import CardSpec, CopySpec, DeckSpec
from engine.protocol import PlayerSetup
from services.infra.catalogs import DATA_DIR, load_catalog

TARGET_MEDIAN_MS = 5.0
TARGET_HITS_PER_S = 50_000

# Six lines per side: all four races, all seven classes, every status a card carries (Confusion comes only from a
# buff), one Défenseur each; these buffs make the pair about even (seat 0 wins about half the battles).
REFERENCE_A = ("sq_guerrier", "orc_cavalier", "syl_archer", "hum_mage", "orc_mage", "sq_defenseur")
REFERENCE_B = ("hum_guerrier", "syl_cavalier", "orc_lancier", "sq_mage", "syl_assassin", "hum_defenseur")
BUFFS_A = ("buff_vitesse", "buff_marqueur")
BUFFS_B = ("buff_degat", "buff_revive")
RANG1_SEED = 30  # a balanced pair (about even over the seeds)

Decks = tuple[DeckSpec, DeckSpec]


@dataclass(frozen=True)
class Run:
    battles: int
    seconds: float
    median_ms: float
    p99_ms: float
    hits: int
    rounds: float
    outcomes: Counter[str]

    @property
    def per_second(self) -> float:
        return self.battles / self.seconds

    @property
    def hits_per_second(self) -> float:
        return self.hits / self.seconds


def _setup(seat: int, extra: dict[str, object]) -> PlayerSetup:
    return PlayerSetup(seat=seat, player_id=seat + 1, deck=(), extra=extra)


def reference(catalog: HossCatalog) -> tuple[Decks, dict[str, CardSpec]]:
    a = _setup(0, full_deck(catalog, REFERENCE_A, BUFFS_A, "divin", 5))
    b = _setup(1, full_deck(catalog, REFERENCE_B, BUFFS_B, "divin", 5))
    return prepare([a, b], catalog)


def rang1_mixed(catalog: HossCatalog) -> tuple[Decks, dict[str, CardSpec]]:
    """Two fixed decks (seeded): six lines each, Rang 1 only, each copy at a random rarity and stars."""
    rng = random.Random(RANG1_SEED)
    by_line = lines_of(catalog)
    defenders = [line for line, cards in by_line.items() if cards[0].cls == "defenseur"]
    attackers = [line for line in by_line if line not in defenders]
    setups = []
    for seat in (0, 1):
        chosen = [*rng.sample(defenders, 1), *rng.sample(attackers, 5)]
        lines = [
            [CopySpec(card=by_line[line][0].id, rarity=rng.choice(RARITIES), stars=rng.randint(0, 5))]
            for line in chosen
        ]
        buffs = [
            CopySpec(card=b.id, rarity=rng.choice(RARITIES), stars=rng.randint(0, 5))
            for b in rng.sample(buffs_of(catalog), 2)
        ]
        setups.append(_setup(seat, setup_extra(lines, buffs)))
    return prepare(setups, catalog)


def play(decks: Decks, cards: dict[str, CardSpec], battles: int, *, log: bool = False) -> Run:
    times: list[int] = []
    hits = rounds = 0
    outcomes: Counter[str] = Counter()
    clock = time.perf_counter_ns
    gc.collect()
    for seed in range(battles):
        start = clock()
        result = simulate(decks[0], decks[1], seed, simple_policy, simple_policy, cards=cards, log=log)
        times.append(clock() - start)
        hits += result.hits
        rounds += result.rounds
        outcomes[f"seat {result.winners[0]}" if result.winners else "draw"] += 1
    ordered = sorted(times)
    return Run(
        battles=battles,
        seconds=sum(times) / 1e9,
        median_ms=statistics.median(ordered) / 1e6,
        p99_ms=ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1e6,
        hits=hits,
        rounds=rounds / battles,
        outcomes=outcomes,
    )


def _line(label: str, run: Run) -> str:
    return (
        f"  {label:<8} {run.per_second:8.0f} battles/s  median {run.median_ms:6.3f} ms  p99 {run.p99_ms:6.3f} ms"
        f"  {run.hits_per_second:9.0f} hits/s  ({run.hits / run.battles:.0f} hits, {run.rounds:.1f} rounds/battle)"
    )


def matchup(name: str, decks: Decks, cards: dict[str, CardSpec], battles: int, runs: int) -> Run:
    """Play `runs` runs and print each; returns a Run holding the medians."""
    print(f"{name}: {battles} battles x {runs} runs, simple_policy on both seats, log off")
    done = []
    for index in range(runs):
        run = play(decks, cards, battles)
        done.append(run)
        print(_line(f"run {index + 1}", run), flush=True)
    median = Run(
        battles=battles,
        seconds=statistics.median(r.seconds for r in done),
        median_ms=statistics.median(r.median_ms for r in done),
        p99_ms=statistics.median(r.p99_ms for r in done),
        hits=int(statistics.median(r.hits for r in done)),
        rounds=statistics.median(r.rounds for r in done),
        outcomes=done[0].outcomes,
    )
    print(_line("median", median))
    wins = ", ".join(f"{k} {v}" for k, v in sorted(median.outcomes.items()))
    print(f"  outcomes (run 1): {wins}")
    return median


def memory(decks: Decks, cards: dict[str, CardSpec], battles: int) -> None:
    checkpoint = min(1000, battles)
    print(f"memory: {battles} sequential reference battles under tracemalloc (log off)")
    gc.collect()
    tracemalloc.start()
    after_first = 0
    for seed in range(battles):
        simulate(decks[0], decks[1], seed, simple_policy, simple_policy, cards=cards)
        if seed + 1 == checkpoint:
            gc.collect()
            after_first = tracemalloc.get_traced_memory()[0]
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    growth = current - after_first
    print(
        f"  traced after {checkpoint}: {after_first / 1024:.1f} KiB; after {battles}: {current / 1024:.1f} KiB"
        f" (growth {growth / 1024:+.1f} KiB, {growth / max(battles - checkpoint, 1):+.1f} B/battle);"
        f" peak {peak / 1024:.1f} KiB"
    )


def profile(decks: Decks, cards: dict[str, CardSpec], battles: int) -> None:
    print(f"profile: {battles} reference battles under cProfile, top 15 functions by own time (tottime)")
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(battles):
        simulate(decks[0], decks[1], seed, simple_policy, simple_policy, cards=cards)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip()))


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def _pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity)"


def main(battles: int, runs: int, memory_battles: int, force_profile: bool) -> None:
    print(f"HOSS battle engine, {_pin_one_core()} of {os.cpu_count()}; Python on this machine")
    catalog = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
    ref_decks, ref_cards = reference(catalog)
    r1_decks, r1_cards = rang1_mixed(catalog)
    print(f"  reference A: {', '.join(REFERENCE_A)} + {', '.join(BUFFS_A)}")
    print(f"  reference B: {', '.join(REFERENCE_B)} + {', '.join(BUFFS_B)}")
    for seat, deck in enumerate(r1_decks):
        copies = ", ".join(f"{line.r1.card} {line.r1.rarity} {line.r1.stars}★" for line in deck.lines)
        print(f"  rang 1 {'AB'[seat]}: {copies}")
    print()
    play(ref_decks, ref_cards, min(200, battles))  # warm-up: imports, caches
    ref = matchup("Maître Divin 5★ (6 lines + 2 buffs each side)", ref_decks, ref_cards, battles, runs)
    print()
    r1 = matchup("Rang 1 mixed rarities", r1_decks, r1_cards, battles, runs)
    print()
    logged = [play(ref_decks, ref_cards, max(battles // 4, 1), log=True) for _ in range(runs)]
    log_median = statistics.median(r.median_ms for r in logged)
    print(
        f"log on (reference, {max(battles // 4, 1)} battles x {runs}): median {log_median:.3f} ms/battle"
        f" = {log_median / ref.median_ms:.1f}x the log off ({ref.median_ms:.3f} ms)"
    )
    print()
    if memory_battles:
        memory(ref_decks, ref_cards, memory_battles)
        print()
    median_ok = ref.median_ms <= TARGET_MEDIAN_MS
    hits_ok = ref.hits_per_second >= TARGET_HITS_PER_S
    print("targets (log off, one core, medians of the runs):")
    print(
        f"  {_mark(median_ok)} median reference battle {ref.median_ms:.3f} ms (target <= {TARGET_MEDIAN_MS:g} ms)"
    )
    print(
        f"  {_mark(hits_ok)} resolved hits {ref.hits_per_second:,.0f}/s on the reference matchup,"
        f" {r1.hits_per_second:,.0f}/s on Rang 1 mixed (target >= {TARGET_HITS_PER_S:,}/s)"
    )
    if force_profile or not (median_ok and hits_ok):
        print()
        profile(ref_decks, ref_cards, max(battles // 4, 1))


def _parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--battles", type=int, default=2000, help="battles per matchup and run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--memory", type=int, default=10_000, help="sequential battles under tracemalloc (0: skip)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="print the cProfile table even if targets are met"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = _parse()
    main(args.battles, args.runs, args.memory, args.profile)
