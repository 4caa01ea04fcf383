"""The lab's worker processes: a `ProcessPoolExecutor` sized to the cores, started at the first lab.

Decisions (docs/lab.md): processes, not threads, because the battles are pure Python (a thread would hold
the GIL away from the event loop); started lazily, because most processes of the bot never run a lab and
each worker costs the memory of an interpreter; the "spawn" start method, because forking a process that
runs an event loop and database threads copies their locks in whatever state they were; shut down with the
bot, cancelling what had not started (`cancel_futures`); each worker lowers its own priority, so that the
bot's event loop keeps answering other commands while a lab plays.

A batch is cut into one chunk per worker and opponent, so a lab's battles are spread over every worker; the
seeds of each opponent are drawn before, so the cut changes no result.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor

from services.community.lab.spec import LabJob
from services.community.lab.stats import Outcome

NICENESS = 10  # the workers yield the cores to the bot's own process whenever it has work


def lower_priority() -> None:
    """In each worker, at its start: a lab's battles take every core, while the bot's event loop must
    answer other commands within milliseconds; a niceness of 10 lets the kernel run the loop first."""
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or not a Unix
        os.nice(NICENESS)


def workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunks(seeds: Sequence[int], parts: int) -> list[list[int]]:
    """`seeds` cut into at most `parts` contiguous runs of nearly equal length, none empty."""
    parts = max(1, min(parts, len(seeds)))
    size, extra = divmod(len(seeds), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append(list(seeds[start:end]))
        start = end
    return [c for c in out if c]


class LabPool:
    """The executor the lab's batches run in. `executor` replaces the process pool (tests use an
    in-process one); `size` is how many chunks a batch is cut into."""

    def __init__(self, size: int | None = None, executor: Executor | None = None) -> None:
        self.size = size or workers()
        self._executor = executor
        self._own = executor is None
        self._closed = False

    @property
    def started(self) -> bool:
        return self._executor is not None

    def _pool(self) -> Executor:
        if self._closed:
            raise RuntimeError("the lab's pool is shut down")
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=self.size, mp_context=context, initializer=lower_priority
            )
        return self._executor

    async def play(self, job: LabJob, seeds: Sequence[Sequence[int]]) -> list[list[Outcome]]:
        """Each opponent's battles (`seeds[i]` for `job.opponents[i]`), in the order of the seeds."""
        pool = self._pool()
        futures: list[list[Future[list[Outcome]]]] = []
        for opponent, own in zip(job.opponents, seeds, strict=True):
            futures.append(
                [
                    pool.submit(job.play, job.catalog, job.deck, opponent.spec, part)
                    for part in chunks(own, self.size)
                ]
            )
        waited = [asyncio.wrap_future(f) for parts in futures for f in parts]
        try:
            await asyncio.gather(*waited)
        except BaseException:
            for f in waited:
                f.cancel()
            raise
        return [[o for f in parts for o in f.result()] for parts in futures]

    def close(self) -> None:
        """Stop the workers; batches not started are cancelled (their awaiting labs get CancelledError)."""
        self._closed = True
        if self._executor is not None and self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
