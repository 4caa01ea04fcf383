"""`quiesce` returns once the loop's other tasks have stopped moving, seen through public asyncio only
(where each task is suspended), not the event loop's private queue of ready callbacks."""

from __future__ import annotations

import asyncio
import inspect

import emulator.core
from emulator.core import EmulatorCore


async def hop(steps: int, done: asyncio.Event) -> None:
    """Work that goes on from task to task, each hop a loop pass later (a response read, then the code
    that follows it in another task)."""
    await asyncio.sleep(0)
    if steps:
        asyncio.get_running_loop().create_task(hop(steps - 1, done))
    else:
        done.set()


async def relay(first: asyncio.Future[None], second: asyncio.Future[None], done: asyncio.Event) -> None:
    """A task woken by a future set from a plain callback, which wakes another the same way."""
    await first
    asyncio.get_running_loop().call_soon(second.set_result, None)
    await asyncio.sleep(0)
    done.set()


async def test_quiesce_waits_for_work_handed_from_task_to_task() -> None:
    core = EmulatorCore()
    done = asyncio.Event()
    asyncio.get_running_loop().create_task(hop(300, done))  # more hops than passes a fixed count would make
    await core.quiesce()
    assert done.is_set()


async def test_quiesce_waits_for_futures_set_by_plain_callbacks() -> None:
    core = EmulatorCore()
    loop = asyncio.get_running_loop()
    first: asyncio.Future[None] = loop.create_future()
    second: asyncio.Future[None] = loop.create_future()
    done, later = asyncio.Event(), asyncio.Event()
    tasks = [
        loop.create_task(relay(first, second, done)),
        loop.create_task(relay(second, loop.create_future(), later)),
    ]
    loop.call_soon(first.set_result, None)
    await core.quiesce()
    assert all(task.done() for task in tasks)
    assert done.is_set()
    assert later.is_set()


async def test_quiesce_does_not_wait_for_work_parked_on_a_timer() -> None:
    """A task asleep until a deadline is not moving: `settle` covers timers, with time."""
    core = EmulatorCore()
    parked = asyncio.get_running_loop().create_task(asyncio.sleep(60))
    await asyncio.wait_for(core.quiesce(), timeout=1)
    assert not parked.done()
    parked.cancel()


def test_quiesce_reads_no_private_state_of_the_event_loop() -> None:
    assert "_ready" not in inspect.getsource(emulator.core)
