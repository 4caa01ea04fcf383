"""The lab's batches, cut in chunks and played on worker processes as many as the cores (`Workers`, in
processes.py: a socket each, read by the event loop), started at the first lab.

Decisions (docs/lab.md): processes, not threads, because the battles are pure Python (a thread would hold
the GIL away from the event loop); started lazily, because most processes of the bot never run a lab and
each worker costs the memory of an interpreter; the "spawn" start method, because forking a process that
runs an event loop and database threads copies their locks in whatever state they were; shut down with the
bot, cancelling the chunks waiting and waiting for the workers to end (`aclose`);
ended with the bot's process however it ends (`start_worker`); each worker lowers its own priority (a
niceness of `NICENESS`; SCHED_IDLE as well when asked, `idle`), so that the bot's event loop keeps answering other
commands while a lab plays. SCHED_IDLE is not the default: on a machine whose cores were all held by
other work, the test suite's labs under it took over a minute for 6 to 40 battles (docs/lab.md).

A batch is played in order of the opponents and their seeds, cut into chunks of decreasing size as it
plays (`Schedule`, guided self-scheduling): two chunks per worker are submitted at a time (one playing,
the next waiting), and each free worker takes the next, so a worker slowed by other processes hands the
rest to the other, the last chunks are small (the tail where one worker waits for the other is short)
and the first are large (few calls: each call of the game's `play` validates the deck and warms its
caches again), though no larger than the former equal chunks (a chunk running at a shutdown plays to its
end). The bounds are in battles until a battle's cost is known, then in time: the workers report the
CPU of each chunk, so a cheap game's tail is a few 5 ms chunks rather than many round trips of 4
battles. A chunk is contiguous: it holds a run of one opponent's seeds, or the runs it crosses from one
opponent to the next. The seeds of each opponent are drawn before, so the cut changes no result.

What a chunk carries is only its seeds and two digests: the game's catalog and the batch's job (the
`play` function, the deck, the opponents) are pickled once in this process (the catalog once per
catalog object, `Pickles`; the job once per batch) and each crosses to a worker once, with the first
chunks; a worker keeps what it unpickled by digest (`held`), and a chunk reaching a worker that does not
hold them comes back unplayed and is sent again with them. Sent with every chunk, the catalog and the
packs were 20 copies of 35 KB per Dinocard batch, pickled, piped and read again. A catalog unpickled
again for every chunk also gave each chunk new card objects, so the engines' caches keyed by card value
(Dinocard's `stats_of`) compared whole cards field by field instead of finding them by identity, and a
Dinocard lab took 40 % more CPU than the engine's own loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any

from services.community.lab.processes import Workers, ended
from services.community.lab.spec import LabJob, Play
from services.community.lab.stats import Outcome

GUIDED = 2  # a chunk is the battles left divided by this many times the workers
SMALLEST = 4  # battles: the tail's chunks at least; a Pillz duel takes 5 ms of CPU, a HOSS battle 3 ms
SMALLEST_SECONDS = 0.005  # of a core: the tail's chunks once a battle's cost is known
LARGEST = 4  # per worker: no chunk above the batch divided by this many times the workers (see `Schedule`)
LARGEST_SECONDS = 0.15  # of a core: a chunk may be larger than that bound if it costs no more than this
AHEAD = 2  # chunks per worker submitted at a time: one playing, the next waiting (no round trip between)
KEPT_CATALOGS = 4  # per worker: every game's catalog, and a reloaded one beside the one it replaces
KEPT_JOBS = 2  # per worker: the batch playing, and the one before (a chunk of it may still be queued)
NICENESS = 19  # the workers yield the cores to the bot's own process whenever it has work
CLOSE_WAIT = 5.0  # seconds a shutdown waits for the chunks playing to end before it stops their workers

Part = tuple[int, int, int]  # an opponent's index, and the first and the last seed (excluded) of its run
Sent = tuple[str, bytes | None]  # a digest, and the pickle it digests (None: the worker should hold it)
Compact = tuple[bool, bool, int, tuple[str, ...]]  # an `Outcome` as it crosses back: its fields in order
Played = list[list[Compact]]  # a chunk's outcomes, part by part


def background() -> int:
    """The niceness of the lab's workers: the bot's own plus `NICENESS` (at most 19)."""
    try:
        return min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
    except (OSError, AttributeError):  # not a Unix
        return NICENESS


def lower_priority(niceness: int, idle: bool = False, pid: int = 0) -> bool:
    """A worker's priority (`pid` 0: this process): a lab's battles take every core, while the bot's event
    loop must answer other commands within milliseconds. `idle` (Linux's SCHED_IDLE) runs the worker only
    on CPU time nothing else wants; the niceness, set in any case, is what is left where SCHED_IDLE is
    refused or unknown (it lets the kernel run the loop first, but still shares the cores with it). The
    niceness is set by the parent as soon as the process exists (`LabPool.play`), then both by the
    worker's initializer. True when the process runs under SCHED_IDLE."""
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or not a Unix
        os.setpriority(os.PRIO_PROCESS, pid, niceness)
    if not idle:
        return False
    try:
        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):  # refused, or not Linux
        return False
    return True


def start_worker(niceness: int, idle: bool) -> None:
    """A worker's initializer: its priority (`lower_priority`), and a thread that ends the worker when the
    bot's process is gone. A worker waiting for its next chunk holds both ends of the pool's call queue,
    so a bot killed without its shutdown (SIGKILL, the OOM killer, a crash) would leave it waiting for
    ever; multiprocessing's parent sentinel, a pipe whose other end only the parent holds, becomes
    readable when the parent exits, however it exits."""
    lower_priority(niceness, idle)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="lab-parent", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when the parent's sentinel is readable: the parent has exited
    os._exit(0)


def workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Schedule:
    """The chunks of a batch of `counts[i]` battles against opponent i, in order, cut as the batch plays:
    each takes the battles left divided by `GUIDED` times the workers, from where the previous one
    stopped, at least `smallest` and at most the batch divided by `LARGEST` times the workers (a shutdown
    cancels the chunks not started, and a running one plays to its end: a Pillz chunk of 125 duels was
    2.5 s of a core). Once a battle's cost is known (`measured`: the CPU the workers report for their
    chunks, or what the last batch of the same game cost), the bounds are in time: the smallest chunk is
    `SMALLEST_SECONDS` of a core, so a cheap battle's tail is not 4-battle chunks whose round trips cost
    as much as their battles (a Dinocard battle is 0.5 ms); the largest may reach `LARGEST_SECONDS`."""

    def __init__(self, counts: Sequence[int], workers: int, cost: float | None = None) -> None:
        self.workers = max(1, workers)
        self.left = self.total = sum(counts)
        self._flat = [(i, n) for i, n in enumerate(counts) if n > 0]
        self._opponent = self._start = 0
        self._battles, self._seconds = 0, 0.0
        self.smallest = SMALLEST
        self.largest = max(SMALLEST, -(-self.total // (LARGEST * self.workers)))
        if cost is not None:
            self._calibrate(cost)

    def _calibrate(self, cost: float) -> None:
        """`cost`: seconds of CPU per battle."""
        count_cap = max(SMALLEST, -(-self.total // (LARGEST * self.workers)))
        if cost <= 0:
            return
        self.largest = max(count_cap, int(LARGEST_SECONDS / cost))
        self.smallest = max(SMALLEST, min(self.largest, math.ceil(SMALLEST_SECONDS / cost)))

    @property
    def cost(self) -> float | None:
        """Seconds of CPU per battle, as measured so far."""
        return self._seconds / self._battles if self._battles and self._seconds > 0 else None

    def measured(self, battles: int, seconds: float) -> None:
        self._battles += battles
        self._seconds += seconds
        cost = self.cost
        if cost is not None:
            self._calibrate(cost)

    def next(self) -> list[Part]:
        """The next chunk (empty once every battle is in one)."""
        size = min(self.left, self.largest, max(self.smallest, -(-self.left // (GUIDED * self.workers))))
        self.left -= size
        chunk: list[Part] = []
        while size > 0:
            index, count = self._flat[self._opponent]
            take = min(size, count - self._start)
            chunk.append((index, self._start, self._start + take))
            size -= take
            self._start += take
            if self._start == count:
                self._opponent, self._start = self._opponent + 1, 0
        return chunk


def cut(counts: Sequence[int], workers: int, cost: float | None = None) -> list[list[Part]]:
    """Every chunk of a batch whose battles cost `cost` seconds each (None: not known), as `Schedule`
    cuts them when the cost does not change on the way."""
    schedule = Schedule(counts, workers, cost)
    out = []
    while schedule.left > 0:
        out.append(schedule.next())
    return out


cpu_clock = time.thread_time  # what a chunk's battles cost, in the worker
_held: dict[str, dict[str, Any]] = {"catalog": {}, "job": {}}  # in a worker: what it unpickled, by digest
_MISSING = object()


def digest(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


def held(kind: str, sent: Sent, room: int) -> Any:
    """What `sent` digests, unpickled once per worker (`_MISSING` when this worker was sent only the digest
    and does not hold it): every chunk of every batch of the same catalog gets the same object, so the
    engine's caches keyed by its cards hit at once. At most `room` of a kind, the oldest dropped first."""
    kept = _held[kind]
    key, blob = sent
    found = kept.get(key, _MISSING)
    if found is _MISSING and blob is not None:
        while len(kept) >= room:
            del kept[next(iter(kept))]
        found = kept[key] = pickle.loads(blob)
    return found


def play_chunk(
    catalog: Sent, job: Sent, parts: Sequence[tuple[int, list[int]]]
) -> tuple[Played, float] | None:
    """The worker's side: each (opponent's index, seeds) part of a chunk, played with the job's `play`,
    and the CPU seconds they took (the schedule's measure of a battle); None when this worker does not
    hold the catalog or the job (the chunk is sent again with them). The outcomes cross back as plain
    tuples: unpickling 1,000 `Outcome` dataclasses took 4.4 ms of the bot's process, the tuples 0.4 ms
    and building the dataclasses again 0.6 ms."""
    game = held("catalog", catalog, KEPT_CATALOGS)
    batch = held("job", job, KEPT_JOBS)
    if game is _MISSING or batch is _MISSING:
        return None
    play, deck, opponents = batch
    began = cpu_clock()
    played = [
        [(o.won, o.lost, o.length, o.cards) for o in play(game, deck, opponents[i], seeds)]
        for i, seeds in parts
    ]
    return played, cpu_clock() - began


class Pickles:
    """The catalogs' pickles in the bot's process, made once per catalog object (a game's catalog lives
    as long as the bot; a reloaded one is a new object). Each is kept with its catalog, so an id is never
    another catalog's."""

    def __init__(self, room: int = KEPT_CATALOGS) -> None:
        self.room = room
        self._kept: dict[int, tuple[Any, str, bytes]] = {}

    def __call__(self, catalog: Any) -> tuple[str, bytes]:
        found = self._kept.get(id(catalog))
        if found is None or found[0] is not catalog:
            while len(self._kept) >= self.room:
                del self._kept[next(iter(self._kept))]
            blob = pickle.dumps(catalog, pickle.HIGHEST_PROTOCOL)
            found = self._kept[id(catalog)] = (catalog, digest(blob), blob)
        return found[1], found[2]


Chunk = Callable[..., Awaitable[tuple[Played, float] | None]]  # a chunk's call, sent to a worker


class LabPool:
    """The lab's worker processes (`Workers`, started at the first batch) and how its batches are cut and
    played on them. `executor` replaces the processes (tests use an in-process one); `size` is how many
    workers the chunks are cut for; `idle`: the workers under SCHED_IDLE as well as their niceness, once
    started (the benchmark compares the two)."""

    def __init__(
        self, size: int | None = None, executor: Executor | None = None, *, idle: bool = False
    ) -> None:
        self.size = size or workers()
        self.idle = idle
        self.niceness = background()
        self._pickles = Pickles()
        self._costs: dict[Play, float] = {}  # a game's battle, in CPU seconds, as its last batch measured
        self._executor = executor
        self._workers: Workers | None = None
        self._closed = False

    @property
    def started(self) -> bool:
        return self._executor is not None or self._workers is not None

    @property
    def pids(self) -> list[int]:
        """The worker processes running (none before the first batch, or with an executor given)."""
        return self._workers.pids if self._workers is not None else []

    async def _chunks(self) -> Chunk:
        """How a chunk is sent: to the workers, started if they are not (or one ended), or to the executor
        given. Each new worker's niceness is set from here as soon as its process exists: a spawned
        worker imports the bot's modules (a second or more of CPU) before its own `start_worker` runs,
        and at the bot's own priority it would take that from the event loop on both cores; the worker
        adds SCHED_IDLE (`idle`) itself once started, as the p99 was measured."""
        if self._closed:
            raise RuntimeError("the lab's pool is shut down")
        if self._executor is not None:
            executor = self._executor
            return lambda *args: asyncio.wrap_future(executor.submit(play_chunk, *args))
        if self._workers is None:
            niceness = self.niceness
            self._workers = Workers(
                self.size,
                start_worker,
                (niceness, self.idle),
                lambda pid: lower_priority(niceness, False, pid),
            )
        workers = self._workers
        await workers.start()
        if self._closed:
            raise asyncio.CancelledError
        return lambda *args: workers.submit(play_chunk, *args)

    async def play(self, job: LabJob, seeds: Sequence[Sequence[int]]) -> list[list[Outcome]]:
        """Each opponent's battles (`seeds[i]` for `job.opponents[i]`), in the order of the seeds. `AHEAD`
        chunks per worker are sent at a time, the next cut as each comes back (`Schedule`, with the cost
        of a battle the workers measured, or the last batch of the game did). The catalog and the job
        travel with the first chunks, one per worker; a chunk a worker could not play (it got neither) is
        sent again with them."""
        send = await self._chunks()
        schedule = Schedule([len(own) for own in seeds], self.size, self._costs.get(job.play))
        catalog = self._pickles(job.catalog)
        blob = pickle.dumps(
            (job.play, job.deck, tuple(o.spec for o in job.opponents)), pickle.HIGHEST_PROTOCOL
        )
        batch = (digest(blob), blob)
        sent: tuple[Sent, Sent] = (catalog, batch)
        named: tuple[Sent, Sent] = ((catalog[0], None), (batch[0], None))
        chunks: list[list[Part]] = []
        results: dict[int, Played] = {}
        running: set[asyncio.Task[tuple[int, int, Played, float]]] = set()

        async def played_chunk(
            number: int, parts: list[tuple[int, list[int]]], first: Awaitable[tuple[Played, float] | None]
        ) -> tuple[int, int, Played, float]:
            result = await first
            if result is None:  # this worker had not been sent the catalog or the job: again, with them
                if self._closed:
                    raise asyncio.CancelledError
                result = await send(*sent, parts)
            assert result is not None
            return number, sum(len(own) for _, own in parts), *result

        def submit() -> None:
            chunk = schedule.next()
            parts = [(i, list(seeds[i][start:end])) for i, start, end in chunk]
            what = sent if len(chunks) < self.size else named
            first = send(what[0], what[1], parts)
            running.add(asyncio.ensure_future(played_chunk(len(chunks), parts, first)))
            chunks.append(chunk)

        try:
            while schedule.left > 0 and len(running) < AHEAD * self.size:
                submit()
            while running:
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    running.discard(task)
                    number, battles, outcomes, seconds = task.result()
                    results[number] = outcomes
                    schedule.measured(battles, seconds)
                while schedule.left > 0 and len(running) < AHEAD * self.size:
                    if self._closed:
                        raise asyncio.CancelledError
                    submit()
        except BaseException:
            for task in running:
                task.cancel()
            raise
        cost = schedule.cost
        if cost is not None:
            self._costs[job.play] = cost
        played: list[list[Outcome]] = [[] for _ in seeds]
        for number, chunk in enumerate(chunks):
            for (i, _, _), part in zip(chunk, results[number], strict=True):
                played[i].extend([Outcome(*o) for o in part])
        return played

    def close(self) -> None:
        """Refuse new batches and close the workers' sockets without waiting: the chunks waiting are
        cancelled (their labs get CancelledError), and each worker ends once it has played the chunks it
        had read. For a caller with no event loop left; `aclose` is the bot's shutdown."""
        self._stop()

    async def aclose(self, wait: float = CLOSE_WAIT) -> None:
        """`close`, then wait off the event loop until the workers have ended: the chunks they had read end
        (a chunk is a fraction of a second of a core, at most `AHEAD` of them a worker), or after `wait`
        seconds the workers are terminated. The bot's interpreter must not exit with workers of its own
        still running."""
        await ended(self._stop(), wait)

    def _stop(self) -> list[multiprocessing.process.BaseProcess]:
        """Refuse new batches; the worker processes to wait for (none started, or an executor given)."""
        self._closed = True
        workers, self._workers = self._workers, None
        return workers.close() if workers is not None else []
