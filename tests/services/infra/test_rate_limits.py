"""The fleet's share of Discord's global rate limit (services/infra/rate_limits.py), on an injected clock:
each process sends at most 50 / N requests in any window, a global pause holds every request back, and a
pause one process records reaches another through the database."""

from __future__ import annotations

import asyncio

import pytest

from services.infra.rate_limits import Limiter, SharedPause, fleet_size, read_pause
from store.db import Database


class FakeTime:
    """Wall-clock seconds that move only when a request sleeps."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.t = start
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds


def limiter(processes: int = 1) -> tuple[Limiter, FakeTime]:
    clock = FakeTime()
    return Limiter(processes, now=clock.now, sleep=clock.sleep), clock


def busiest_second(times: list[float]) -> int:
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


@pytest.mark.parametrize(
    ("processes", "burst", "per_second"), [(1, 2, 42.5), (2, 1, 21.25), (3, 1, 14.17), (4, 1, 10.625)]
)
def test_a_burst_leaves_at_most_the_share_in_any_second(
    processes: int, burst: int, per_second: float
) -> None:
    lim, clock = limiter(processes)
    times = [lim.reserve() for _ in range(200)]
    assert times[:burst] == pytest.approx([clock.t] * burst)  # a few go at once
    assert times[burst] == pytest.approx(clock.t + 1 / per_second, rel=1e-3)  # then one every 1 / rate
    assert times[-1] - times[-2] == pytest.approx(1 / per_second, rel=1e-3)
    assert busiest_second(times) <= 0.9 * 50 / processes  # 10 % left for the network's jitter
    assert times == sorted(times)  # in the order they asked


def test_the_fleet_together_stays_under_fifty_a_second() -> None:
    a, clock = limiter(2)
    b = Limiter(2, now=clock.now, sleep=clock.sleep)
    times = sorted([a.reserve() for _ in range(100)] + [b.reserve() for _ in range(100)])
    assert busiest_second(times) <= 45


async def test_a_request_due_now_does_not_wait() -> None:
    lim, clock = limiter(1)
    for _ in range(2):
        await lim.acquire()
    assert clock.slept == []
    assert lim.waited == 0
    await lim.acquire()
    assert clock.slept == [pytest.approx(1 / 42.5)]
    clock.t += 10  # idle for a while: the burst is back
    for _ in range(2):
        await lim.acquire()
    assert len(clock.slept) == 1


async def test_no_request_leaves_before_a_global_pause_ends() -> None:
    lim, clock = limiter()
    assert lim.pause(clock.t + 2.5)
    await lim.acquire()
    assert clock.t == pytest.approx(1_002.5)
    assert not lim.pause(clock.t - 1)  # an earlier end never shortens a pause


async def test_a_request_waiting_its_turn_when_a_pause_comes_waits_for_the_pause_too() -> None:
    lim, clock = limiter(50)  # one request a second
    await lim.acquire()
    started = clock.t

    async def pause_meanwhile(seconds: float) -> None:
        lim.pause(started + 5.0)  # a global 429 arrived while this request slept
        clock.t += seconds

    lim.sleep = pause_meanwhile
    await lim.acquire()
    assert clock.t >= started + 5.0


def test_the_fleet_size_is_the_larger_of_the_settings_and_the_heartbeats() -> None:
    assert fleet_size(None, None) == 1  # unsharded, one process
    assert fleet_size(4, (0, 1, 2, 3)) == 1  # one process holds every shard
    assert fleet_size(2, (1,)) == 2  # one shard each of two
    assert fleet_size(5, (0, 1)) == 3  # two shards each: three processes
    assert fleet_size(2, (0,), live=3) == 3  # a third process connected (a rolling restart)
    assert fleet_size(None, None, live=2) == 2


async def test_a_global_pause_recorded_by_one_process_pauses_the_other(db: Database) -> None:
    here, clock = limiter()
    there = Limiter(now=clock.now, sleep=clock.sleep)
    mine, theirs = SharedPause(db, here), SharedPause(db, there)
    await mine.start()
    await theirs.start()
    try:
        mine.publish(clock.t + 3.0)
        assert here.paused_until == clock.t + 3.0  # at once, before the database
        for _ in range(100):  # the write, its commit, then the other's read
            if there.paused_until:
                break
            await asyncio.sleep(0.01)
        assert there.paused_until == clock.t + 3.0
        mine.publish(clock.t + 1.0)  # a shorter pause does not shorten the recorded one
        await asyncio.sleep(0.05)
        assert await db.read(read_pause) == clock.t + 3.0
    finally:
        await mine.close()
        await theirs.close()


async def test_a_process_starting_during_a_pause_waits_for_it(db: Database) -> None:
    first, clock = limiter()
    shared = SharedPause(db, first)
    await shared.start()
    shared.publish(clock.t + 4.0)
    await asyncio.sleep(0.05)
    await shared.close()
    later = Limiter(now=clock.now, sleep=clock.sleep)
    starting = SharedPause(db, later)
    await starting.start()
    await starting.close()
    assert later.paused_until == clock.t + 4.0


async def test_an_unbounded_limiter_lets_everything_go_at_once() -> None:
    lim, clock = limiter(2)
    lim.bounded = False
    lim.pause(clock.t + 5)
    for _ in range(100):
        await lim.acquire()
    assert clock.slept == []
    assert lim.requests == 100
