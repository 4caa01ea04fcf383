"""The lab's own worker processes (services/community/lab/processes.py): no thread in the bot's process,
a worker that ends fails only its batch, and an error in a worker reaches the lab."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine.hoss import HossCatalog
from engine.protocol import PlayerSetup
from services.community.lab.pool import LabPool
from services.community.lab.processes import WorkerEnded, frame
from services.community.lab.stats import Outcome
from services.hoss.lab import play
from tests.services.community.lab.test_pool import job, spawned
from tests.services.hoss.ranked import catalog


async def test_a_batch_starts_no_thread_in_the_bots_process() -> None:
    """The chunks cross on the workers' sockets, read by the event loop: the bot's process has the same
    threads during a batch as before it (an executor's management and queue-feeder threads woke for every
    chunk: 0.65 ms of the bot's CPU per chunk)."""
    before = {t.ident for t in threading.enumerate()}
    pool = LabPool(size=2)
    seen: set[int | None] = set()

    async def watch() -> None:
        while True:
            seen.update(t.ident for t in threading.enumerate())
            await asyncio.sleep(0.001)

    watcher = asyncio.create_task(watch())
    try:
        played = await pool.play(job(tuple(range(1, 10))), [list(range(20))] * 9)
        await pool.play(job((2, 5)), [list(range(40)), list(range(40))])
    finally:
        watcher.cancel()
        await pool.aclose()
    assert seen <= before
    assert [len(p) for p in played] == [20] * 9


async def test_a_worker_that_ends_fails_its_batch_and_the_next_batch_plays() -> None:
    """A worker killed in the middle of a batch (the OOM killer, a crash) fails that batch with a clear
    error, not a wait for ever; the next batch starts a worker in its place and plays every battle."""
    pool = LabPool(size=2)
    batch = asyncio.create_task(pool.play(job(tuple(range(1, 10))), [list(range(300))] * 9))
    try:
        victim = (await spawned(pool))[0]
        await asyncio.sleep(0.5)  # the workers are importing or playing
        os.kill(victim, signal.SIGKILL)
        with pytest.raises(WorkerEnded):
            await asyncio.wait_for(batch, 60)
        lab_job = job((3, 7))
        seeds = [list(range(10)), list(range(10, 20))]
        again = await pool.play(lab_job, seeds)
        assert victim not in pool.pids
        assert len(pool.pids) == 2
        assert again == [play(catalog(), lab_job.deck, r, own) for r, own in zip((3, 7), seeds, strict=True)]
    finally:
        await pool.aclose()


def failing(catalog: HossCatalog, deck: PlayerSetup, rank: int, seeds: Sequence[int]) -> list[Outcome]:
    raise ValueError(f"rank {rank} refused")


async def test_an_error_in_a_worker_reaches_the_lab() -> None:
    pool = LabPool(size=2)
    try:
        with pytest.raises(ValueError, match="refused"):
            await pool.play(replace(job((4,)), play=failing), [[1, 2, 3]])
        played = await pool.play(job((4,)), [[1, 2, 3]])
        assert len(played[0]) == 3  # the workers still play
    finally:
        await pool.aclose()


def test_a_frame_is_what_a_multiprocessing_connection_reads() -> None:
    from multiprocessing import Pipe

    ours, theirs = Pipe()
    try:
        for blob in (b"", b"x", bytes(range(256)) * 100):
            ours._send(b"".join(frame(blob)))  # type: ignore[attr-defined]
            assert theirs.recv_bytes() == blob
    finally:
        ours.close()
        theirs.close()


class Unreadable:
    """Pickles in a worker, and cannot be unpickled in the bot's process."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (refuse, ())


def refuse() -> None:
    raise TypeError("not here")


def unreadable(catalog: HossCatalog, deck: PlayerSetup, rank: int, seeds: Sequence[int]) -> list[Outcome]:
    return [Outcome(True, False, 1, (Unreadable(),))]  # type: ignore[arg-type]


async def test_an_answer_that_cannot_be_read_fails_its_batch_not_the_worker() -> None:
    pool = LabPool(size=2)
    try:
        with pytest.raises(RuntimeError, match="could not be read"):
            await asyncio.wait_for(pool.play(replace(job((4,)), play=unreadable), [[1, 2, 3]]), 60)
        pids = pool.pids
        played = await pool.play(job((4,)), [[1, 2, 3]])
        assert len(played[0]) == 3
        assert pool.pids == pids  # the same workers: their sockets still read
    finally:
        await pool.aclose()
