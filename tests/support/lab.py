"""The lab's service tests' helpers: an in-process stand-in for the process pool, and a fixed seed source."""

from __future__ import annotations

import random
from concurrent.futures import Executor, Future
from typing import Any


class InlineExecutor(Executor):
    """Runs each call at once, in the caller."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


class FixedSeed(random.Random):
    """A game service's seed source that gives one chosen seed: a lab's battle started again through the
    game's normal path."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.lab_seed = seed

    def getrandbits(self, k: int, /) -> int:
        return self.lab_seed
