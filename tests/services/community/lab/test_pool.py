"""The lab's real process pool, once: started lazily, the same results as in-process, and a shutdown in
the middle of a batch cancels what had not started."""

from __future__ import annotations

import asyncio
import os
import pickle
import subprocess
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

import pytest

from engine.hoss import HossCatalog, ranked_opponent
from engine.protocol import PlayerSetup
from services.community.lab import pool as pool_module
from services.community.lab.pool import (
    NICENESS,
    SMALLEST,
    SMALLEST_SECONDS,
    LabPool,
    cut,
    lower_priority,
)
from services.community.lab.spec import LabJob, Opponent
from services.community.lab.stats import Outcome
from services.hoss.lab import play
from services.infra.messages import Text
from tests.services.hoss.ranked import catalog
from tests.support.lab import InlineExecutor


def job(ranks: tuple[int, ...]) -> LabJob:
    deck = replace(ranked_opponent(catalog(), 4, 99), seat=0, player_id=1)
    opponents = tuple(Opponent(r, Text.raw(str(r)), Text.raw(str(r))) for r in ranks)
    return LabJob(
        play, catalog(), deck, opponents, Text.raw("deck"), {}, "hoss.lab.rounds", "hoss.lab.presence"
    )


async def spawned(pool: LabPool, count: int = 2, within: float = 30.0) -> list[int]:
    """The pool's worker processes once `count` exist (each may still be importing the bot's modules)."""
    for _ in range(int(within / 0.002)):
        if len(pool.pids) >= count:
            break
        await asyncio.sleep(0.002)
    return pool.pids


async def test_the_process_pool_plays_what_the_engine_plays_in_process() -> None:
    pool = LabPool(size=2)
    assert not pool.started  # nothing is spawned before the first lab
    lab_job = job((1, 6))
    seeds = [[1, 2, 3, 4, 5], [6, 7, 8]]
    try:
        far = await pool.play(lab_job, seeds)
        assert pool.started
    finally:
        pool.close()
    near = await LabPool(size=2, executor=InlineExecutor()).play(lab_job, seeds)
    assert far == near
    assert [len(part) for part in far] == [5, 3]


async def test_the_workers_run_below_the_bot_from_their_first_instant() -> None:
    """Right after a batch is submitted, while the new workers still import the bot's modules (their
    initializer has not run yet), they already run at the bot's niceness plus 10; asked for SCHED_IDLE,
    they play under it as well once started."""
    pool = LabPool(size=2, idle=True)
    batch = asyncio.create_task(pool.play(job((1,)), [[1, 2, 3, 4]]))
    try:
        pids = await spawned(pool)  # each worker's process exists, still importing
        assert len(pids) == 2
        wanted = min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == [wanted] * len(pids)
        await batch
        for _ in range(300):  # a worker that got no chunk may still be starting: its initializer follows
            if all(os.sched_getscheduler(pid) == os.SCHED_IDLE for pid in pids):
                break
            await asyncio.sleep(0.1)
        assert [os.sched_getscheduler(pid) for pid in pids] == [os.SCHED_IDLE] * len(pids)
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == [wanted] * len(pids)
    finally:
        pool.close()


async def test_a_shutdown_in_the_middle_cancels_the_batch() -> None:
    pool = LabPool(size=2)
    batch = asyncio.create_task(pool.play(job(tuple(range(1, 10))), [list(range(200))] * 9))
    assert len(await spawned(pool)) == 2
    await asyncio.sleep(0.05)  # the first chunks are sent: the batch is under way
    assert not batch.done()
    pool.close()
    with pytest.raises(asyncio.CancelledError):
        await batch
    with pytest.raises(RuntimeError, match="shut down"):
        await pool.play(job((1,)), [[1]])


class Pickling(InlineExecutor):
    """As a process pool hands a call to a worker: its arguments pickled and unpickled, each time."""

    def __init__(self) -> None:
        self.chunks = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.chunks += 1
        fn, args = pickle.loads(pickle.dumps((fn, args)))
        return super().submit(fn, *args, **kwargs)


seen: list[HossCatalog] = []


def recording(catalog: HossCatalog, deck: PlayerSetup, rank: int, seeds: Sequence[int]) -> list[Outcome]:
    seen.append(catalog)
    return play(catalog, deck, rank, seeds)


async def test_a_worker_unpickles_the_catalog_once_and_the_chunks_share_it() -> None:
    """Every chunk of every batch gets the same catalog object in a worker (the engines' caches keyed by
    card find them by identity), and every rank's battles come back in the order of its seeds."""
    executor = Pickling()
    lab_job = replace(job(tuple(range(1, 10))), play=recording)
    seeds = [list(range(100 * r, 100 * r + 12)) for r in range(1, 10)]
    seen.clear()
    pool = LabPool(size=2, executor=executor)
    played = await pool.play(lab_job, seeds)
    await pool.play(lab_job, seeds)
    assert len(seen) >= executor.chunks >= 2 * 9
    assert all(c is seen[0] for c in seen)
    assert seen[0] is not catalog()  # it did go through a pickle
    assert played == [
        play(catalog(), lab_job.deck, r, own) for r, own in zip(range(1, 10), seeds, strict=True)
    ]


class Workers(InlineExecutor):
    """Worker processes as the chunks meet them: each call pickled and unpickled, and played by the worker
    `route` names for the call's number, with that worker's own memory of what it was sent."""

    def __init__(self, route: Callable[[int], int]) -> None:
        self.route = route
        self.memories: dict[int, dict[str, dict[str, Any]]] = {}
        self.sizes: list[int] = []  # each call's pickle, in bytes
        self.answers: list[Any] = []  # what each call sent back
        self.calls = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        worker = self.route(self.calls)
        self.calls += 1
        blob = pickle.dumps((fn, args))
        self.sizes.append(len(blob))
        fn, args = pickle.loads(blob)
        memory = self.memories.setdefault(worker, {"catalog": {}, "job": {}})
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pool_module, "_held", memory, raising=False)
            future = super().submit(fn, *args, **kwargs)
        self.answers.append(future.result())
        return future


async def test_the_catalog_and_the_job_cross_to_each_worker_once_per_batch() -> None:
    """The catalog (33 KB pickled) and the deck travel to a worker once, not with every chunk: past the
    first chunk of each worker, a chunk is its seeds and two digests. Each worker unpickles the catalog
    once for every batch, and the results are the engine's."""
    executor = Workers(lambda call: call % 2)
    lab_job = job(tuple(range(1, 10)))
    seeds = [list(range(100 * r, 100 * r + 12)) for r in range(1, 10)]
    pool = LabPool(size=2, executor=executor)
    played = await pool.play(lab_job, seeds)
    chunks = executor.calls
    again = await pool.play(lab_job, [own[::-1] for own in seeds])
    catalog_size = len(pickle.dumps(catalog(), pickle.HIGHEST_PROTOCOL))
    heavy = [n for n, size in enumerate(executor.sizes) if size > catalog_size // 4]
    assert heavy == [0, 1, chunks, chunks + 1]  # each worker's first chunk of each batch
    assert all(size < 2_000 for n, size in enumerate(executor.sizes) if n not in heavy)
    assert [len(m["catalog"]) for m in executor.memories.values()] == [1, 1]
    kept = [c for m in executor.memories.values() for c in m["catalog"].values()]
    assert kept[0] is not kept[1]  # each worker's own, unpickled there
    expected = [play(catalog(), lab_job.deck, r, own) for r, own in zip(range(1, 10), seeds, strict=True)]
    assert played == expected
    assert again == [e[::-1] for e in expected]


async def test_the_outcomes_cross_back_as_plain_tuples() -> None:
    """A chunk's outcomes come back from the worker as tuples of plain values (the bot's process unpickled
    1,000 `Outcome` dataclasses in 4.4 ms, the tuples in 0.4 ms), and the batch is still made of
    `Outcome`s, the engine's."""
    executor = Workers(lambda call: call % 2)
    lab_job = job((3, 8))
    seeds = [list(range(10)), list(range(10, 20))]
    played = await LabPool(size=2, executor=executor).play(lab_job, seeds)
    crossed = [o for answer in executor.answers for part in answer[0] for o in part]
    assert len(crossed) == 20
    assert {type(o) for o in crossed} == {tuple}
    assert played == [play(catalog(), lab_job.deck, r, own) for r, own in zip((3, 8), seeds, strict=True)]
    assert {type(o) for part in played for o in part} == {Outcome}


async def test_a_chunk_reaching_a_worker_without_the_job_is_sent_again_with_it() -> None:
    """The first chunks carry the job, one per worker; when one worker takes two of them, the other's first
    chunk reaches it with digests only: it comes back unplayed and is sent again, with the job; so is a
    chunk reaching a new worker (one the pool started in place of another)."""
    executor = Workers(lambda call: 1 if call == 2 else 0)  # worker 1 first gets the third chunk
    lab_job = job((2, 7))
    seeds = [list(range(40)), list(range(40, 80))]
    pool = LabPool(size=2, executor=executor)
    expected = [play(catalog(), lab_job.deck, r, own) for r, own in zip((2, 7), seeds, strict=True)]
    assert await pool.play(lab_job, seeds) == expected
    heavy = executor.sizes[0]
    resent = [n for n, size in enumerate(executor.sizes) if size >= heavy and n > 1]
    assert len(resent) == 1  # the third chunk, sent again with the job
    assert executor.sizes[2] < heavy
    first = executor.calls
    executor.memories[1] = {"catalog": {}, "job": {}}  # a new worker
    executor.route = lambda call: 1 if call == first + 2 else 0
    assert await pool.play(lab_job, seeds) == expected
    assert len([size for size in executor.sizes[first:] if size >= heavy]) == 3


class Chunks(InlineExecutor):
    """Records each chunk's parts: (opponent, how many seeds)."""

    def __init__(self) -> None:
        self.parts: list[list[tuple[Any, int]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.parts.append([(opponent, len(own)) for opponent, own in args[-1]])
        return super().submit(fn, *args, **kwargs)


pretend = {"cost": 0.003, "spent": 0.0}  # what `counting` pretends a battle costs, and what it spent


def counting(catalog: HossCatalog, deck: PlayerSetup, rank: int, seeds: Sequence[int]) -> list[Outcome]:
    pretend["spent"] += pretend["cost"] * len(seeds)
    return [Outcome(s % 2 == 0, s % 2 == 1, rank, (str(s),)) for s in seeds]


def sizes_of(executor: Chunks) -> list[int]:
    return [sum(n for _, n in parts) for parts in executor.parts]


async def chunked(cost: float, batches: int = 1) -> tuple[Chunks, list[list[Outcome]], list[list[int]]]:
    """`batches` batches of 1,000 battles against 9 ranks on 2 workers, each battle costing `cost`."""
    executor = Chunks()
    lab_job = replace(job(tuple(range(1, 10))), play=counting)
    seeds = [list(range(1000 * r, 1000 * r + (112 if r == 1 else 111))) for r in range(1, 10)]
    pool = LabPool(size=2, executor=executor)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pool_module, "cpu_clock", lambda: pretend["spent"], raising=False)
        patch.setitem(pretend, "cost", cost)
        for _ in range(batches):
            played = await pool.play(lab_job, seeds)
    return executor, played, seeds


async def test_a_batch_ends_with_small_chunks_and_each_chunk_plays_few_calls() -> None:
    """1,000 HOSS battles (3 ms each) against 9 ranks on 2 workers: the chunks shrink to `SMALLEST` battles
    at the end (the worker that finishes first waits little for the other), a chunk is contiguous, so
    `play` is called at most once per chunk and rank (each call validates the deck and warms its caches
    again: the former cut, a share of every rank in each of 8 chunks, made 72 calls), and the results
    come back in order."""
    executor, played, seeds = await chunked(0.003)
    sizes = sizes_of(executor)
    assert sum(sizes) == 1000
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] <= SMALLEST
    assert max(sizes) <= 1000 // 8  # a chunk running at a shutdown plays to its end: no longer than before
    assert len(sizes) <= 20
    assert sum(len(parts) for parts in executor.parts) <= 9 + len(sizes)
    assert played == [
        counting(catalog(), job((1,)).deck, r, n) for r, n in zip(range(1, 10), seeds, strict=True)
    ]


async def test_cheap_battles_are_cut_in_fewer_chunks_from_the_first_ones_cost() -> None:
    """1,000 battles of 0.2 ms (a Dinocard battle once its engine is compiled): the schedule reads the cost
    the workers measured on the first chunks and cuts the rest in chunks of at least `SMALLEST_SECONDS`
    of a core, not 4-battle chunks whose round trips cost as much as their battles; the next batch of
    the same game starts from that cost. The results are the same, in order."""
    executor, played, seeds = await chunked(0.0002)
    sizes = sizes_of(executor)
    assert sum(sizes) == 1000
    assert len(sizes) <= 14
    assert min(sizes[:-1]) >= SMALLEST_SECONDS / 0.0002
    assert played == [
        counting(catalog(), job((1,)).deck, r, n) for r, n in zip(range(1, 10), seeds, strict=True)
    ]
    executor, _, _ = await chunked(0.0002, batches=2)
    second = sizes_of(executor)[len(sizes) :]
    assert sum(second) == 1000
    assert len(second) <= 12
    assert max(second) <= 250  # the first chunks still leave a share for the other worker


def test_the_cut_covers_every_seed_once_in_order() -> None:
    for counts in ([5, 3], [0, 3, 0], [1], [40], [112] + [111] * 8, [7, 0, 9, 1]):
        for workers in (1, 2, 8):
            chunks = cut(counts, workers)
            runs = [part for chunk in chunks for part in chunk]
            assert [i for i, s, e in runs for _ in range(s, e)] == [
                i for i, n in enumerate(counts) for _ in range(n)
            ]
            assert all(s < e for _, s, e in runs)


def test_where_sched_idle_is_refused_the_niceness_is_left() -> None:
    """The fallback: a worker the kernel refuses SCHED_IDLE still runs at the lowered niceness."""
    child = subprocess.Popen(["sleep", "30"])
    try:
        assert lower_priority(15, True, child.pid)
        assert os.sched_getscheduler(child.pid) == os.SCHED_IDLE
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == 15
    finally:
        child.kill()
        child.wait()
    child = subprocess.Popen(["sleep", "30"])
    refuse = pytest.MonkeyPatch()
    try:
        refuse.setattr(os, "sched_setscheduler", raising_permission)
        assert not lower_priority(16, True, child.pid)
        assert os.sched_getscheduler(child.pid) == os.SCHED_OTHER
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == 16
    finally:
        refuse.undo()
        child.kill()
        child.wait()


def raising_permission(*args: Any) -> None:
    raise PermissionError(1, "Operation not permitted")
