"""The lab's real process pool, once: started lazily, the same results as in-process, and a shutdown in
the middle of a batch cancels what had not started."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from engine.hoss import ranked_opponent
from services.community.lab.pool import LabPool
from services.community.lab.spec import LabJob, Opponent
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
