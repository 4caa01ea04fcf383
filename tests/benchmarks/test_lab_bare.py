"""The lab benchmark's bare baseline: the engine's loop with its battles divided over as many processes as
the lab has workers plays every seed once, and the processes' CPU is the engine's."""

from __future__ import annotations

from benchmarks.lab import Batch, dinocard_job, median_batch, seeds_for
from benchmarks.lab_bare import BareEngine, shares


def test_the_shares_hold_every_seed_once_in_order() -> None:
    seeds = [list(range(7)), list(range(10, 13)), []]
    cut = shares(seeds, 2)
    assert cut == [[[0, 1, 2], [10], []], [[3, 4, 5, 6], [11, 12], []]]
    for opponent, own in enumerate(seeds):
        assert [s for share in cut for s in share[opponent]] == own


def test_the_bare_processes_play_the_batch_at_once() -> None:
    job = dinocard_job()
    bare = BareEngine(job, 2)
    try:
        wall, cpu = bare.play(seeds_for(job, 40))
    finally:
        bare.close()
    assert 0 < wall < 60
    assert cpu > 0


def test_a_runs_lab_figures_are_the_medians_of_its_batches() -> None:
    batches = [Batch(0.30, (0.20, 0.10), 0.01), Batch(0.10, (0.25, 0.05), 0.03), Batch(0.20, (0.15,), 0.02)]
    assert median_batch(batches) == Batch(0.20, (0.20, 0.05), 0.02)
