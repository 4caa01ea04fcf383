"""A bot on an event loop and thread of its own, so that a benchmark can tell the bot's CPU from the rest.

In one process and one loop, the scripted users, the Discord emulator and the bot share one thread: the
process's CPU per command is all three, and the emulator's share (parsing the bot's requests, building
the gateway's events) is larger for a larger reply. With the bot on its own thread, the emulator and the
users keep the benchmark's thread, and the CPU of every other thread (the bot's loop, its SQLite
connections' threads) is the bot's: `Figures.others_cpu_seconds` (benchmarks/command_latency.py).

The threads share the GIL: Python code of the bot and of the emulator still runs one at a time, as before,
but each thread's CPU clock counts only its own work. What crosses between the two (a grant before a
phase, whose turn it is in a duel) is a coroutine run on the bot's loop with `BotThread.run`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from sandbox.harness import BotHarness

T = TypeVar("T")


class BotThread:
    """An event loop running forever on a daemon thread, until `close`; or, not `own`, the caller's loop
    (the bot shares the users' and the emulator's thread, as benchmarks.command_latency runs it)."""

    def __init__(self, name: str, *, own: bool = True) -> None:
        self.own = own
        self.loop = asyncio.new_event_loop() if own else asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        if own:
            self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run `coro` on the bot's loop; await its result from the caller's loop."""
        if not self.own:
            return await coro
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def start(self, coro: Coroutine[Any, Any, None]) -> asyncio.Future[None]:
        """Start `coro` on the bot's loop (a bot's `start`), as a future of the caller's loop."""
        if not self.own:
            return asyncio.ensure_future(coro)
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    async def close(self) -> None:
        if not self.own:
            return

        async def shutdown() -> None:  # as asyncio.run ends: what the bot left waiting is cancelled
            left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            await self.loop.shutdown_asyncgens()
            await self.loop.shutdown_default_executor()

        with contextlib.suppress(Exception):
            await self.run(shutdown())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self._thread.join, 10)
        self.loop.close()


class ThreadedHarness(BotHarness):
    """`BotHarness` with the real bot on a `BotThread`: what the benchmark uses of it (start, stop,
    settle), nothing more (`restart` and `advance` stay single-loop). Code that awaits the bot's services
    goes through `on_bot`."""

    thread: BotThread | None = None
    own_thread = True  # False: the bot on the caller's loop, as `BotHarness` runs it
    _running: asyncio.Future[None] | None = None

    async def on_bot(self, coro: Coroutine[Any, Any, T]) -> T:
        assert self.thread is not None
        return await self.thread.run(coro)

    async def _start_bot(self) -> None:
        self.thread = BotThread("bot", own=self.own_thread)

        async def build() -> None:  # built on its own loop: what it creates belongs there
            self.bot = self._new_bot()

        await self.on_bot(build())
        assert self.bot is not None
        emu = self.emu
        emu.gateway.ready.clear()
        running = self._running = self.thread.start(self.bot.start(emu.bot_token))
        ready = asyncio.ensure_future(emu.wait_ready(timeout=20))
        done, _ = await asyncio.wait({ready, running}, return_when=asyncio.FIRST_COMPLETED)
        if running in done:
            ready.cancel()
            running.result()
            raise RuntimeError("the bot stopped during start-up")
        ready.result()
        await self.on_bot(asyncio.wait_for(self.bot.wait_until_ready(), timeout=20))

    async def _stop_bot(self) -> None:
        if self.bot is not None:
            await self.on_bot(self.bot.close())
        if self._running is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._running
        if self.thread is not None:
            await self.thread.close()
        self.bot, self._running, self.thread = None, None, None

    async def settle(self, *, deliver: bool = True) -> None:
        assert self.bot is not None
        assert self.bot.deliverer is not None
        if deliver:
            await self.on_bot(self.bot.deliverer.flush())
        await self.emu.settle()
