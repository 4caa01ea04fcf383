"""The engine's own loop, in this process and on as many bare processes as the lab has workers: the two
baselines the lab's batch is compared with (benchmarks/lab.py).

A batch divided over two workers cannot take half the time of one process's loop on this machine: two
processes at once each run 4-6 % slower than one alone (its two virtual cores share what one has alone),
whatever they run. The bare processes play the engine's loop, each its share of the seeds, started
together, with nothing of the lab (no chunks, no pickles per chunk, no statistics): the engine's own
time with its battles divided over the workers, on the same cores at the same niceness as the lab's."""

from __future__ import annotations

import multiprocessing
import pickle
import time
from collections.abc import Sequence
from typing import Any

from services.community.lab.pool import background, lower_priority
from services.community.lab.spec import LabJob

START_MARGIN = 0.2  # seconds: every bare process has its seeds before the common start


def engine_loop(job: LabJob, seeds: Sequence[Sequence[int]]) -> tuple[float, float]:
    """(wall, CPU) seconds of the engine's own loop in this process."""
    began, cpu = time.perf_counter(), time.process_time()
    for opponent, own in zip(job.opponents, seeds, strict=True):
        job.play(job.catalog, job.deck, opponent.spec, own)
    return time.perf_counter() - began, time.process_time() - cpu


_held: list[LabJob] = []  # in a bare process: the job, unpickled once (the engines' caches by identity)


def _hold(blob: bytes, niceness: int) -> None:
    _held.append(pickle.loads(blob))
    lower_priority(niceness)


def _share(seeds: Sequence[Sequence[int]], start_at: float) -> tuple[float, float]:
    """A bare process's share, from the common start: when it ended (by the monotonic clock, which every
    process on Linux reads alike), and its CPU."""
    while time.monotonic() < start_at:
        time.sleep(0.0005)
    _, cpu = engine_loop(_held[-1], seeds)
    return time.monotonic(), cpu


def shares(seeds: Sequence[Sequence[int]], size: int) -> list[list[list[int]]]:
    """Each bare process's seeds: a contiguous run of every opponent's, the runs as even as they divide."""
    return [
        [list(own[len(own) * w // size : len(own) * (w + 1) // size]) for own in seeds] for w in range(size)
    ]


class BareEngine:
    """`size` spawned processes holding `job`, each playing its share of a batch's seeds at once."""

    def __init__(self, job: LabJob, size: int) -> None:
        self.size = size
        context = multiprocessing.get_context("spawn")
        blob = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
        self._pool: Any = context.Pool(size, initializer=_hold, initargs=(blob, background()))

    def play(self, seeds: Sequence[Sequence[int]]) -> tuple[float, float]:
        """(wall, CPU) seconds: from the common start to the last process's end, and the processes' sum."""
        start_at = time.monotonic() + START_MARGIN
        ended = self._pool.starmap(
            _share, [(share, start_at) for share in shares(seeds, self.size)], chunksize=1
        )
        return max(end for end, _ in ended) - start_at, sum(cpu for _, cpu in ended)

    def close(self) -> None:
        self._pool.terminate()
        self._pool.join()
