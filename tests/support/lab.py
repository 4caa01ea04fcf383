"""The lab's stand-in for its process pool in service tests: each call runs at once, in the caller."""

from __future__ import annotations

from concurrent.futures import Executor, Future
from typing import Any


class InlineExecutor(Executor):
    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future
