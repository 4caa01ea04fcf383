"""Which process sends a server's posts when the bot runs in several processes, each over its own shards.

Discord gives each gateway shard the events of the servers whose id maps to it (`(id >> 22) % count`), and
a process of a sharded bot connects only its own shards (core/settings.py `shards`). Its outbox deliverer
sends only the posts of those servers too (docs/deployment.md, "Several processes and shards"):
- discord.py learns a route's rate limit (a channel's bucket) from the answers to its own requests, in
  its own memory: two processes posting in one channel would each believe it had the bucket to itself,
  and draw 429s;
- a server's channels are cached only by the process whose shard received them: any other one must
  fetch a channel before posting in it (one more request, counted against the same limits).

Each process writes the shards it holds in its heartbeat row (services/infra/heartbeat.py). A process
found dead (the fleet's dead-peer rule, the same one that releases its outbox claims) has its shards
released with its claims (`release`): the servers of a shard no live process holds are served by any
live process until the supervisor restarts the dead one, whose first beat takes them back.

An item with no server (`guild_id` NULL: a DM outside any server, an item written before migration 0031)
goes out from any process. A DM with a fallback channel names the fallback's server and follows it: its
"show" button is a post in that server's channel, and a game's DMs and posts then leave from one process.
DMs are not all given to the holder of shard 0 (where Discord sends the DMs' events): the DMs of every
game would then leave one process, which has only its 1/N share of the global rate limit
(services/infra/rate_limits.py).

SQLite has one process, and an unsharded process holds every server: neither filters anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from store.connection import Connection
from store.db import announce

SHARD_SHIFT = 22  # Discord's sharding formula, in SQL here (in Python: core.settings.Settings.holds)


@dataclass(frozen=True)
class Shards:
    """The gateway shards one process holds, of the bot's `count`."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shards {self.ids} are not a non-empty part of 0..{self.count - 1}")

    def text(self) -> str:
        """As the heartbeat row stores them: "0,2"."""
        return ",".join(str(shard) for shard in sorted(self.ids))


def sent_here(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The condition on an outbox row `o` that this process may send it, and its parameters; empty when
    it may send everything (`shards` None: SQLite or an unsharded process).

    The row's server is on one of this process's shards; or it has no server; or no heartbeat row holds
    its shard, each row under its own shard count (a process gone and released, `release`). One text for
    both engines: the shard list is matched as text (",0,2," contains ",2,")."""
    if shards is None:
        return "", ()
    marks = ", ".join("?" * len(shards.ids))
    shard = f"(o.guild_id >> {SHARD_SHIFT})"
    return (
        f" AND (o.guild_id IS NULL OR {shard} % ? IN ({marks})"
        " OR NOT EXISTS (SELECT 1 FROM heartbeats h WHERE h.shard_count IS NOT NULL"
        f" AND ',' || h.shard_ids || ',' LIKE '%,' || CAST({shard} % h.shard_count AS TEXT) || ',%'))",
        (shards.count, *shards.ids),
    )


def release(conn: Connection, processes: list[str], topic: str) -> int:
    """Forget the shards these processes held (stopped, or found dead): their servers' posts go out from
    any live process, whose deliverers are woken (`topic`). Returns how many processes had some. A process
    taken for dead that beats again takes its shards back with that beat."""
    if not processes:
        return 0
    released = conn.execute(
        "UPDATE heartbeats SET shard_count = NULL, shard_ids = NULL"
        f" WHERE shard_ids IS NOT NULL AND process IN ({', '.join('?' * len(processes))})",
        processes,
    ).rowcount
    if released:
        announce(conn, topic)
    return released
