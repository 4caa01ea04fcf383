"""A worker process the crash tests kill with SIGKILL, one life at a time, and what the test learns from
its lines (`tests/services/store/crash_worker.py` says what a life writes: `ready`, `ack N`, `window`, `done`).
Shared by the outbox's crash test (`test_crash_safety.py`) and the drops' (`drops/test_crash_safety.py`)."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

SILENCE = 60.0  # seconds without a word from the worker after which the test fails instead of hanging


@dataclass
class Run:
    acked: set[int] = field(default_factory=set)
    windows_killed: int = 0


class Worker:
    """The worker process: it forks one life per `live` call, from its already imported modules."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.killed = False

    @staticmethod
    async def start(script: Path) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(script), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        return Worker(process)

    async def finish(self) -> None:
        """No more lives: the worker exits by itself, cleanly."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert await self.process.wait() == 0

    async def stop(self) -> None:
        """After a failed check: end the life, then the worker."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGUSR1)
            await asyncio.sleep(0.2)  # let the worker kill its life before it goes itself
            self.process.kill()
            await self.process.wait()

    async def line(self, timeout: float) -> str:  # noqa: ASYNC109
        assert self.process.stdout is not None
        try:
            raw = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        except TimeoutError:
            raise AssertionError(f"the worker said nothing for {timeout} s") from None
        assert raw, "the worker process ended"
        return raw.decode().strip()

    async def live(self, spec: dict[str, object], run: Run, kill: str | None, rng: random.Random) -> bool:
        """One life; `kill` is "window", "random" or None (let it finish). True when it finished its work."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(spec).encode() + b"\n")
        await self.process.stdin.drain()
        self.killed, finished, acks, window_after = False, False, 0, rng.randint(1, 4)
        timer: asyncio.TimerHandle | None = None
        try:
            while True:
                line = await self.line(SILENCE)
                if line.startswith("exit "):
                    assert self.killed or int(line.split()[1]) == 0, f"a life failed: {line}"
                    return finished
                if line.startswith("ack "):
                    run.acked.add(int(line.split()[1]))
                    acks += 1
                elif line == "ready" and kill == "random":
                    timer = asyncio.get_running_loop().call_later(rng.uniform(0.05, 0.4), self.kill_life)
                elif line == "done":
                    finished = True
                    if timer is not None:
                        timer.cancel()  # the life ends by itself
                elif line == "window" and kill == "window" and acks >= window_after and not self.killed:
                    self.kill_life()
                    run.windows_killed += 1
        finally:
            if timer is not None:
                timer.cancel()

    def kill_life(self) -> None:
        """The worker SIGKILLs the life: it knows whether the pid is still its child's."""
        if not self.killed:
            self.process.send_signal(signal.SIGUSR1)
            self.killed = True
