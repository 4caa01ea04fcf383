"""Waiting for a thing to have happened rather than for time to pass: a test that sleeps "long enough"
is slow when the machine is idle and wrong when it is busy."""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, cast

from core.clock import ManualClock


async def started(*tasks: asyncio.Task[Any]) -> None:
    """Returns once every task has run its first step (a `Database.write` has then queued its unit, which
    it does before its first await). The loop runs its callbacks in order, and each task's first step
    was queued when the task was created: a callback queued now runs after them all."""
    loop = asyncio.get_running_loop()
    barrier: asyncio.Future[None] = loop.create_future()
    loop.call_soon(barrier.set_result, None)
    await barrier
    for task in tasks:
        coro = cast(Coroutine[Any, Any, Any], task.get_coro())
        assert task.done() or inspect.getcoroutinestate(coro) != inspect.CORO_CREATED, task


async def in_thread(event: threading.Event, timeout: float = 5) -> None:  # noqa: ASYNC109
    """Returns once `event` is set by another thread (a unit running on the writer's thread)."""
    assert await asyncio.to_thread(event.wait, timeout), "the thread never got there"


def gated() -> tuple[threading.Event, threading.Event, Callable[..., None]]:
    """A unit that holds the writer's thread: `entered` is set once it runs, and it returns once
    `release` is set (so the test decides how long the writer stays busy, not a sleep)."""
    entered, release = threading.Event(), threading.Event()

    def unit(*_: object) -> None:
        entered.set()
        assert release.wait(10), "the test never released the unit"

    return entered, release, unit


class Sleeps:
    """Each due time a dispatcher goes to sleep until on `clock` (the scheduler's `_loop`), as it goes."""

    def __init__(self, clock: ManualClock) -> None:
        self.untils: list[datetime] = []
        self._changed = asyncio.Event()
        sleep = clock.sleep_until

        async def sleep_until(when: datetime, wake: asyncio.Event) -> None:
            self.untils.append(when)
            self._changed.set()
            await sleep(when, wake)

        clock.sleep_until = sleep_until  # type: ignore[method-assign]

    async def until(self, when: datetime) -> None:
        """Returns once the last sleep began is until `when`."""
        async with asyncio.timeout(5):
            while not self.untils or self.untils[-1] != when:
                self._changed.clear()
                await self._changed.wait()
