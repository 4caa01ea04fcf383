"""What a HOSS lab battle costs, the strong AI on both seats, against the machine's speed of the day.

The deck lab (issue 38) wants 1,000 battles in 1 s on 2 cores at the README's quiet reference speed,
about 2 ms of CPU per battle on one core. Measured here, one core, in one run:

- a lab battle: `engine.hoss.lab.lab_battles` with benchmarks/lab.py's deck (a Rang 4 ranked deck) against
  the AI of every rank, `--battles` seeds shared over the 9 ranks: the ranked opponent's deck, the deal,
  the rounds and the strong AI on both seats, CPU time (the wall clock of a shared machine varies 3-4×);
- where it goes, with `--split`: the same battles again, the CPU of the AI's Rang 2 path choices (their
  look-aheads included), card choices, Défenseur moves and placements, per battle;
- the machine of the day: benchmarks/lab.py's pure-Python loop, timed beside; a battle's CPU times
  `REFERENCE_LOOP_MS` / today's loop is its CPU at the reference speed (benchmarks/lab.py says how that
  figure was calibrated). The HOSS reference battle of benchmarks/hoss_battles.py is printed beside.

Medians of `--runs` runs. Figures and what they say: docs/performance.md, "The deck lab".

    python -m benchmarks.hoss_lab_ai [--battles 450] [--runs 3] [--split]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.lab import REFERENCE_LOOP_MS, at_reference, hoss_job, python_loop, reference_ms
from engine.hoss import ai
from engine.hoss.lab import lab_battles

TARGET_MS = 2.0  # CPU per battle on one core at the reference speed
RANKS = range(1, 10)
PARTS = ("_path", "_play", "_move", "_place")


def lab_cpu_ms(battles: int) -> float:
    """CPU milliseconds per lab battle over `battles` battles (seeds 5000 r.. at rank r)."""
    job = hoss_job()
    per = max(1, battles // len(RANKS))
    began = time.process_time()
    for rank in RANKS:
        lab_battles(job.catalog, job.deck, rank, range(5000 * rank, 5000 * rank + per))
    return (time.process_time() - began) * 1000 / (per * len(RANKS))


def split_ms(battles: int) -> dict[str, float]:
    """CPU milliseconds per battle in each of the strong AI's decisions, the same battles played again,
    and in everything else ("rest": the rounds of the battle itself, the deal, the opponent's deck)."""
    spent = dict.fromkeys(PARTS, 0.0)
    originals = {name: getattr(ai, name) for name in PARTS}

    def timed(name: str, decide: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            began = time.process_time()
            try:
                return decide(*args)
            finally:
                spent[name] += time.process_time() - began

        return run

    try:
        for name, decide in originals.items():
            setattr(ai, name, timed(name, decide))
        whole = lab_cpu_ms(battles)
    finally:
        for name, decide in originals.items():
            setattr(ai, name, decide)
    per = max(1, battles // len(RANKS)) * len(RANKS)
    parts = {name.strip("_"): seconds * 1000 / per for name, seconds in spent.items()}
    return {**parts, "rest": whole - sum(parts.values())}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=450)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--split", action="store_true")
    options = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cpus, refs, loops = [], [], []
    for _ in range(options.runs):
        loops.append(python_loop() * 1000)
        refs.append(reference_ms())
        cpus.append(lab_cpu_ms(options.battles))
    cpu, ref, loop = statistics.median(cpus), statistics.median(refs), statistics.median(loops)
    scaled = at_reference(cpu, loop)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, pure-Python loop {loop:.1f} ms, "
        f"reference battle {ref:.3f} ms"
    )
    runs = ", ".join(f"{c:.2f}" for c in cpus)
    print(f"lab battle {cpu:.2f} ms CPU (runs {runs}), {cpu / ref:.2f}× the reference battle")
    verdict = "ok" if scaled <= TARGET_MS else "ABOVE"
    print(
        f"at the reference speed (loop {REFERENCE_LOOP_MS:g} ms): {scaled:.2f} ms CPU (<= {TARGET_MS:g}: {verdict})"
    )
    if options.split:
        shown = ", ".join(f"{name} {ms:.2f}" for name, ms in split_ms(options.battles).items())
        print(f"where a battle's CPU goes (ms, the AI's decisions timed): {shown}")


if __name__ == "__main__":
    main()
