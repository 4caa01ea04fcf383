"""The lab's worker processes, each fed through a socket of its own that the event loop reads.

Why not `concurrent.futures.ProcessPoolExecutor` (the lab's pool until December 2026): a chunk crossing it
wakes its management thread, its call queue's feeder thread and the event loop's self-pipe, each a thread
switch and a GIL hand-off in the bot's process. Measured on a 1,000-battle Dinocard batch (13 chunks), the
bot's process spent 8.4-9.0 ms of CPU in the batch, its main thread 3.4-4.3 ms of it: about 0.65 ms per
chunk, taken from the cores the two workers play on (the workers run at a lower priority, so each
millisecond of the bot's CPU is one the workers wait), for a batch of 105 ms a worker. Here a chunk is
one write of its pickle on the worker's socket, and its answer one read when the event loop sees the
socket readable (`Link.data_received`): no thread in the bot's process.

A worker answers its chunks in the order it got them, so each socket keeps the futures of the chunks sent
on it in that order. A chunk is sent to the worker with the fewest chunks waiting, so a slowed worker gets
fewer. A worker whose socket closes (it ended: killed, crashed) fails the chunks sent to it, and the next
chunk starts another in its place. The frames are multiprocessing's `Connection` frames (a 4-byte signed
length, big-endian; -1 and an 8-byte length beyond 2 GiB), which the worker reads with a `Connection`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import pickle
import socket
import struct
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

WIDE = 0x7FFFFFFF  # the largest frame a 4-byte length says; beyond, -1 and an 8-byte length


class WorkerEnded(RuntimeError):
    """A worker ended while chunks sent to it were not answered."""


def frame(blob: bytes) -> tuple[bytes, ...]:
    """`blob` as a `Connection` reads it: its length first."""
    if len(blob) > WIDE:
        return struct.pack("!iQ", -1, len(blob)), blob
    return struct.pack("!i", len(blob)), blob


def serve(conn: Connection, start: Callable[..., None], args: tuple[Any, ...]) -> None:
    """A worker's life: `start(*args)`, then each call read from `conn`, run, and its outcome sent back
    (`(True, result)` or `(False, exception)`), until the bot's end of the socket closes."""
    start(*args)
    while True:
        try:
            fn, call = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*call))
        except Exception as exc:  # the bot's side raises it in the lab's task
            answer = (False, exc)
        try:
            blob = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an outcome or an exception that does not pickle
            blob = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        try:
            conn.send_bytes(blob)
        except OSError:  # the bot's end is closed
            return


class Link(asyncio.Protocol):
    """The bot's end of a worker's socket: the frames read as they come, each the answer to the oldest
    chunk still waiting."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self._buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        while len(buffer) >= 4:
            (size,) = struct.unpack_from("!i", buffer)
            start = 4
            if size == -1:
                if len(buffer) < 12:
                    return
                (size,) = struct.unpack_from("!Q", buffer, 4)
                start = 12
            if len(buffer) < start + size:
                return
            blob = bytes(buffer[start : start + size])
            del buffer[: start + size]
            self.worker.answered(blob)

    def connection_lost(self, exc: Exception | None) -> None:
        self.worker.lost()


class Worker:
    """One worker process and the futures of the chunks sent to it, oldest first."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self.process = process
        self.transport: asyncio.BaseTransport | None = None
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.alive = True

    def send(self, blob: bytes, future: asyncio.Future[Any]) -> None:
        assert isinstance(self.transport, asyncio.WriteTransport)
        self.waiting.append(future)
        self.transport.writelines(frame(blob))

    def answered(self, blob: bytes) -> None:
        future = self.waiting.popleft()
        if future.done():  # its batch was cancelled
            return
        try:
            ok, value = pickle.loads(blob)
        except Exception as exc:  # an answer this process cannot read: that chunk fails, not the socket
            ok, value = False, RuntimeError(f"a lab worker's answer could not be read: {exc!r}")
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def lost(self) -> None:
        self.alive = False
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(WorkerEnded("a lab worker ended"))


class Workers:
    """`size` worker processes, started when first needed (`start`), each running `start(*args)` first;
    `spawned(pid)` is called in the bot's process as soon as a worker's process exists."""

    def __init__(
        self,
        size: int,
        start: Callable[..., None],
        args: tuple[Any, ...],
        spawned: Callable[[int], object] = lambda pid: None,
    ) -> None:
        self.size = size
        self._start = start
        self._args = args
        self._spawned = spawned  # called with each new worker's pid as soon as its process exists
        self.closed = False
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[Worker] = []
        self._starting = asyncio.Lock()  # two batches at once start the missing workers once

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def start(self) -> None:
        """Start the workers missing (none yet, or ended)."""
        async with self._starting:
            await self._start_missing()

    async def _start_missing(self) -> None:
        self._workers = [w for w in self._workers if w.alive]
        while len(self._workers) < self.size and not self.closed:
            ours, theirs = socket.socketpair()
            end = Connection(theirs.detach())
            process = self._context.Process(
                target=serve, args=(end, self._start, self._args), name="lab-worker", daemon=True
            )
            try:
                process.start()
            finally:
                end.close()
            assert process.pid is not None
            self._spawned(process.pid)
            worker = Worker(process)
            worker.transport, _ = await asyncio.get_running_loop().create_unix_connection(
                functools.partial(Link, worker), sock=ours
            )
            if self.closed:  # shut down while this one started: it ends as the others did
                worker.transport.close()
                break
            self._workers.append(worker)

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """`fn(*args)` in the worker with the fewest chunks waiting (`start` first)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        alive = [w for w in self._workers if w.alive]
        if not alive:
            future.set_exception(WorkerEnded("no lab worker is running"))
            return future
        worker = min(alive, key=lambda w: len(w.waiting))
        worker.send(pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL), future)
        return future

    def close(self) -> list[multiprocessing.process.BaseProcess]:
        """Close every socket: the chunks sent and not answered are cancelled; each worker ends once it
        has played what it had read (at most the chunks sent ahead to it). The processes, to wait for."""
        self.closed = True
        workers, self._workers = self._workers, []
        for worker in workers:
            for future in worker.waiting:
                future.cancel()
            if worker.transport is not None:
                worker.transport.close()
        return [w.process for w in workers]


async def ended(processes: list[multiprocessing.process.BaseProcess], within: float) -> None:
    """Wait off the event loop until `processes` have ended; after `within` seconds, stop them."""
    if not processes:
        return

    def join() -> None:
        deadline = time.monotonic() + within
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))

    await asyncio.to_thread(join)
    late = [p for p in processes if p.is_alive()]
    for process in late:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    if late:
        await asyncio.to_thread(join)
