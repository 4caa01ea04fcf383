"""A process's memory of rows that every command reads and few commands change (a player's languages, a
server's pauses and bans), kept correct across the units and processes that change them.

The unit that changes a row calls `forget` (in the writer's thread) and announces the row's topic with its
key (`store.db.announce`); every process subscribed with `changed` forgets the key once the commit is known
(`Database.subscribe_keys`; on PostgreSQL other processes hear it by NOTIFY). A read that raced with a
`forget` (its read ran before the change but returned after it) is not stored: `generation` moved in
between. A lost notification (`changed(None)`) forgets everything. The oldest entry goes first beyond
`capacity`.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class KeyedCache(Generic[V]):
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.generation = 0
        self._known: dict[int, V] = {}
        self._lock = threading.Lock()  # `forget` runs in the writer's thread, the rest on the event loop

    def get(self, key: int) -> V | None:
        return self._known.get(key)

    async def get_or_read(self, key: int, read: Callable[[], Awaitable[V]]) -> V:
        """The value kept for `key`, else `read()`'s, kept unless a `forget` came during the read."""
        known = self._known.get(key)
        if known is not None:
            return known
        generation = self.generation
        value = await read()
        self.put(key, value, generation)
        return value

    def put(self, key: int, value: V, generation: int) -> None:
        """Keep `value`, read when `generation` was current, unless a `forget` came since."""
        with self._lock:
            if generation != self.generation:
                return
            self._known.pop(key, None)
            self._known[key] = value
            if len(self._known) > self.capacity:
                del self._known[next(iter(self._known))]

    def forget(self, key: int) -> None:
        """Call inside the write unit that changes the row (which also announces its topic and key)."""
        with self._lock:
            self.generation += 1
            self._known.pop(key, None)

    def clear(self) -> None:
        """Forget everything: changes were announced that this process did not hear."""
        with self._lock:
            self.generation += 1
            self._known.clear()

    def changed(self, key: str | None) -> None:
        """A commit announced the topic for `key`, or None: some rows, unknown."""
        if key is None:
            self.clear()
        else:
            self.forget(int(key))
