"""The lab's real process pool, once: started lazily, the same results as in-process, and a shutdown in
the middle of a batch cancels what had not started."""

from __future__ import annotations

import asyncio
import os
import pickle
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

import pytest

from engine.hoss import HossCatalog, ranked_opponent
from engine.protocol import PlayerSetup
from services.community.lab.pool import CHUNKS_PER_WORKER, NICENESS, LabPool
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
    initializer has not run yet), they already run at the bot's niceness plus 10."""
    pool = LabPool(size=2)
    batch = asyncio.create_task(pool.play(job((1,)), [[1, 2, 3, 4]]))
    await asyncio.sleep(0)  # the task runs up to its first wait: the chunks are submitted, workers spawned
    try:
        pids = list(getattr(pool._executor, "_processes", {}))
        assert pids
        wanted = min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in pids] == [wanted] * len(pids)
        await batch
    finally:
        pool.close()


async def test_a_shutdown_in_the_middle_cancels_the_batch() -> None:
    pool = LabPool(size=2)
    batch = asyncio.create_task(pool.play(job(tuple(range(1, 10))), [list(range(200))] * 9))
    await asyncio.sleep(0)  # the task runs up to its first wait: every chunk is submitted by then
    assert pool.started
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
    """A batch against 9 ranks is cut into `CHUNKS_PER_WORKER` chunks per worker (each a share of every
    rank), every chunk of every batch gets the same catalog object in a worker (the engines' caches keyed
    by card find them by identity), and every rank's battles come back in the order of its seeds."""
    executor = Pickling()
    lab_job = replace(job(tuple(range(1, 10))), play=recording)
    seeds = [list(range(100 * r, 100 * r + 12)) for r in range(1, 10)]
    seen.clear()
    pool = LabPool(size=2, executor=executor)
    played = await pool.play(lab_job, seeds)
    await pool.play(lab_job, seeds)
    assert executor.chunks == 2 * 2 * CHUNKS_PER_WORKER
    assert len(seen) == 2 * 2 * CHUNKS_PER_WORKER * 9
    assert all(c is seen[0] for c in seen)
    assert seen[0] is not catalog()  # it did go through a pickle
    assert played == [
        play(catalog(), lab_job.deck, r, own) for r, own in zip(range(1, 10), seeds, strict=True)
    ]
