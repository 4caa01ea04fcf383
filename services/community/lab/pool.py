"""The lab's worker processes: a `ProcessPoolExecutor` sized to the cores, started at the first lab.

Decisions (docs/lab.md): processes, not threads, because the battles are pure Python (a thread would hold
the GIL away from the event loop); started lazily, because most processes of the bot never run a lab and
each worker costs the memory of an interpreter; the "spawn" start method, because forking a process that
runs an event loop and database threads copies their locks in whatever state they were; shut down with the
bot, cancelling what had not started (`cancel_futures`); each worker lowers its own priority, so that the
bot's event loop keeps answering other commands while a lab plays.

A batch is cut into `CHUNKS_PER_WORKER` chunks per worker, each holding a share of every opponent's seeds,
so a lab's battles are spread over every worker and a worker that finishes early takes the next chunk; the
game's catalog travels pickled once per batch and each worker unpickles it once (`catalog_of`, by the digest
of its pickle): a catalog unpickled again for every chunk gave each chunk new card objects, so the engines'
caches keyed by card value (Dinocard's `stats_of`) compared whole cards field by field instead of finding
them by identity, and a Dinocard lab took 40 % more CPU than the engine's own loop. The seeds of each
opponent are drawn before, so the cut changes no result.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import multiprocessing
import os
import pickle
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

from services.community.lab.spec import LabJob, Play
from services.community.lab.stats import Outcome

CHUNKS_PER_WORKER = 4  # enough for a worker slowed by other processes to hand work to the others
KEPT_CATALOGS = 4  # per worker: every game's catalog, and a reloaded one beside the one it replaces
NICENESS = 10  # the workers yield the cores to the bot's own process whenever it has work


def background() -> int:
    """The niceness of the lab's workers: the bot's own plus `NICENESS` (at most 19)."""
    try:
        return min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
    except (OSError, AttributeError):  # not a Unix
        return NICENESS


def lower_priority(niceness: int, idle: bool = False) -> None:
    """A worker's priority: a lab's battles take every core, while the bot's event loop must answer
    other commands within milliseconds; a niceness of 10 lets the kernel run the loop first; `idle`
    (Linux's SCHED_IDLE) runs the worker only on CPU time nothing else wants. Set twice, to the same
    value: by the parent as soon as the process exists (`LabPool.play`), then by the worker's initializer
    in case the parent could not."""
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or not a Unix
        os.setpriority(os.PRIO_PROCESS, 0, niceness)
    if idle:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


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


_catalogs: dict[str, Any] = {}  # in a worker: the catalogs it has unpickled, by the digest of their pickle


def catalog_of(key: str, blob: bytes) -> Any:
    """The catalog pickled in `blob`, unpickled once per worker: every chunk of every batch of the same
    catalog gets the same object, so the engine's caches keyed by its cards hit at once."""
    found = _catalogs.get(key)
    if found is None:
        while len(_catalogs) >= KEPT_CATALOGS:
            del _catalogs[next(iter(_catalogs))]
        found = _catalogs[key] = pickle.loads(blob)
    return found


def play_chunk(
    play: Play, key: str, blob: bytes, deck: Any, parts: Sequence[tuple[Any, list[int]]]
) -> list[list[Outcome]]:
    """The worker's side: each (opponent, seeds) part of a chunk, played with the game's `play`."""
    catalog = catalog_of(key, blob)
    return [play(catalog, deck, opponent, seeds) for opponent, seeds in parts]


class LabPool:
    """The executor the lab's batches run in. `executor` replaces the process pool (tests use an
    in-process one); `size` is how many chunks a batch is cut into."""

    def __init__(
        self, size: int | None = None, executor: Executor | None = None, *, idle: bool = False
    ) -> None:
        self.size = size or workers()
        self.idle = idle
        self.niceness = background()
        self._lowered: set[int] = set()
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
                max_workers=self.size,
                mp_context=context,
                initializer=lower_priority,
                initargs=(self.niceness, self.idle),
            )
        return self._executor

    def _lower_new_workers(self) -> None:
        """Lower the priority of the workers `submit` has just started, from here and at once: a spawned
        worker imports the bot's modules (the parent's main module and its imports: a second or more of
        CPU) before its initializer runs, and at the bot's own priority it would take that from the
        event loop on both cores. The pool keeps its processes in `_processes` (CPython 3.8 to 3.13)."""
        processes = getattr(self._executor, "_processes", None) or {}
        for pid in list(processes):
            if pid in self._lowered:
                continue
            self._lowered.add(pid)
            with contextlib.suppress(OSError, AttributeError):  # gone already, or not a Unix
                os.setpriority(os.PRIO_PROCESS, pid, self.niceness)

    async def play(self, job: LabJob, seeds: Sequence[Sequence[int]]) -> list[list[Outcome]]:
        """Each opponent's battles (`seeds[i]` for `job.opponents[i]`), in the order of the seeds."""
        pool = self._pool()
        count = self.size * CHUNKS_PER_WORKER
        cut = [chunks(own, count) for own in seeds]
        blob = pickle.dumps(job.catalog, pickle.HIGHEST_PROTOCOL)
        key = hashlib.blake2b(blob, digest_size=16).hexdigest()
        futures: list[Future[list[list[Outcome]]]] = []
        for n in range(max((len(parts) for parts in cut), default=0)):
            parts = [(o.spec, c[n]) for o, c in zip(job.opponents, cut, strict=True) if n < len(c)]
            futures.append(pool.submit(play_chunk, job.play, key, blob, job.deck, parts))
        self._lower_new_workers()
        waited = [asyncio.wrap_future(f) for f in futures]
        try:
            await asyncio.gather(*waited)
        except BaseException:
            for w in waited:
                w.cancel()
            raise
        played: list[list[Outcome]] = [[] for _ in seeds]
        for n, future in enumerate(futures):
            outcomes = iter(future.result())
            for i, c in enumerate(cut):
                if n < len(c):
                    played[i].extend(next(outcomes))
        return played

    def close(self) -> None:
        """Stop the workers; batches not started are cancelled (their awaiting labs get CancelledError)."""
        self._closed = True
        if self._executor is not None and self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
