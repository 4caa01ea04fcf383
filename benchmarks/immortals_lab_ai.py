"""What an Immortal's War lab duel costs, the AI on both seats, against the machine's speed of the day.

The deck lab (issue 38) wants 1,000 duels in 1 s on 2 cores at the README's quiet reference speed, about
2 ms per duel on one quiet core, the AI's choices included. Measured here, one core, in one run:

- a lab duel: the Immortal's War lab's worker (`services.immortals.lab.play`, the deck of
  benchmarks/lab.py, `--duels` seeds shared over the four terrains): the practice mirror deck, the
  terrain's draw, the engine and the AI on both seats;
- the AI alone in the same duels, played again: the wall time of its `choose` calls, per duel;

Each pass starts with the AI's memo of fights empty, as in a fresh lab worker.
- the machine of the day: benchmarks/lab.py's pure-Python loop and the HOSS reference battle; a duel's
  time times `REFERENCE_LOOP_MS` / today's loop is its time at the reference speed (benchmarks/lab.py
  says how that figure was calibrated; the figures below, before it, were scaled by the reference battle).

Medians of `--runs` runs. Measured (load average about 2, two runs each; details in docs/performance.md,
"The immortals AI's speed"):

    before: lab duel 4.25 / 4.39 ms wall, the AI 3.29 / 3.15 ms CPU; 4.76 / 4.78 ms CPU at the reference
    after:  lab duel 2.66 / 2.57 ms wall, the AI 1.81 / 1.79 ms CPU; 3.25 / 3.11 ms CPU at the reference

and once the lab read a seed's terrain from its draw (load average about 1.5, three runs each):

    before: lab duel 2.61 / 2.57 / 2.52 ms CPU, the AI 1.84 / 1.80 / 1.75 ms; 3.09 / 3.06 / 3.18 at the reference
    after:  lab duel 2.27 / 2.15 / 2.16 ms CPU, the AI 1.86 / 1.77 / 1.78 ms; 2.72 / 2.70 / 2.68 at the reference

and once a seat's decisions shared a table through the duel (load average 6 to 7, two runs each):

    before: lab duel 3.07 / 2.84 ms CPU, the AI 2.50 / 2.54 ms; 2.84 / 2.66 ms CPU at the (loaded) reference
    after:  lab duel 2.12 / 2.01 ms CPU, the AI 1.36 / 1.37 ms; 2.10 / 1.89 ms CPU at the (loaded) reference

    python -m benchmarks.immortals_lab_ai [--duels 400] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Sequence

from benchmarks.lab import REFERENCE_LOOP_MS, at_reference, immortals_job, python_loop, reference_ms
from engine.immortals import Choose, ImmortalsState, choose
from engine.immortals.ai import forget
from engine.immortals.lab import drawn_on, play_duel
from services.community.lab.service import split
from services.immortals.lab import opponent_setup

TARGET_MS = 2.0  # per duel on one core at the reference speed


def lab_duels(duels: int, seed: int) -> tuple[float, float, float]:
    """Milliseconds per lab duel over `duels` duels: whole (wall and CPU time: on a loaded machine the CPU
    time leaves out the waits for a core) and in the AI's `choose` (CPU time)."""
    job = immortals_job()
    rng = random.Random(seed)
    seeds = [[rng.randrange(2**62) for _ in range(n)] for n in split(duels, len(job.opponents))]
    spent = 0.0

    def timed(state: ImmortalsState, seat: int, draws: random.Random) -> Choose:
        nonlocal spent
        began = time.process_time()
        chosen = choose(state, seat, draws)
        spent += time.process_time() - began
        return chosen

    forget()
    began, began_cpu = time.perf_counter(), time.process_time()
    for opponent, own in zip(job.opponents, seeds, strict=True):
        job.play(job.catalog, job.deck, opponent.spec, own)
    whole, whole_cpu = time.perf_counter() - began, time.process_time() - began_cpu
    forget()
    for opponent, own in zip(job.opponents, seeds, strict=True):
        for seed in own:
            played, state = drawn_on(
                job.catalog, job.deck, lambda s: opponent_setup(job.catalog, job.deck, s), opponent.spec, seed
            )
            play_duel(state, played, timed)
    return whole * 1000 / duels, whole_cpu * 1000 / duels, spent * 1000 / duels


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    wholes, cpus, ais, loops, refs = [], [], [], [], []
    for run in range(options.runs):
        loops.append(python_loop() * 1000)
        refs.append(reference_ms())
        whole, cpu, ai = lab_duels(options.duels, run)
        wholes.append(whole)
        cpus.append(cpu)
        ais.append(ai)
    whole, cpu, ai = statistics.median(wholes), statistics.median(cpus), statistics.median(ais)
    ref, loop = statistics.median(refs), statistics.median(loops)
    scaled, scaled_cpu = at_reference(whole, loop), at_reference(cpu, loop)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"pure-Python loop {loop:.0f} ms, reference battle {ref:.2f} ms")
    runs = ", ".join(f"{w:.2f}" for w in wholes)
    print(f"lab duel {whole:.2f} ms wall (runs {runs}), {cpu:.2f} ms CPU, of which the AI {ai:.2f} ms CPU")
    verdict = "ok" if scaled_cpu <= TARGET_MS else "ABOVE"
    print(
        f"at the reference speed (loop {REFERENCE_LOOP_MS:g} ms): {scaled:.2f} ms per duel wall, {scaled_cpu:.2f} ms CPU "
        f"(<= {TARGET_MS:g}: {verdict})"
    )


if __name__ == "__main__":
    main()
