"""Who is active in which server, kept cheap enough to run after every slash command.

The drops' rhythm needs two facts per server: that slash commands were used there recently, and how many
players used one there today (docs/drops.md, "Rhythm"). Writing them at every command would be a write
transaction per command; instead this tracker remembers, per server and Paris day, the players already
written and when the server's activity was last written, and says to write only for a player new to the
server today or when a minute has passed since the server's last write. What it costs per command is a
dictionary lookup, a set lookup and one comparison of times (`benchmarks/drop_activity.py`, README).

In memory, per process: a server's commands all reach the process holding its shard. A restart forgets
what was written, so each player's first command after it is written once more (an upsert that changes
nothing); nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from services.infra.recurrence import resolve_wall_time

TOUCH_EVERY = timedelta(minutes=1)  # a server's activity is written at most this often
MIDNIGHT = time(0, 0)


@dataclass
class _Server:
    day: date
    day_ends: datetime
    players: set[int] = field(default_factory=set)  # written already for `day`
    next_touch: datetime | None = None  # when the server's activity may be written again


class ActivityTracker:
    def __init__(self, zone: ZoneInfo) -> None:
        self.zone = zone
        self._servers: dict[int, _Server] = {}

    def due(self, guild_id: int, player_id: int, now: datetime) -> date | None:
        """The Paris day to write this command under, or None when there is nothing new to write. Saying
        a day counts the write as done: a write that fails loses one minute of activity, no more."""
        server = self._servers.get(guild_id)
        if server is None or now >= server.day_ends:
            server = self._new_day(guild_id, now)
        if player_id in server.players and server.next_touch is not None and now < server.next_touch:
            return None
        server.players.add(player_id)
        server.next_touch = now + TOUCH_EVERY
        return server.day

    def _new_day(self, guild_id: int, now: datetime) -> _Server:
        day = now.astimezone(self.zone).date()
        server = _Server(day, resolve_wall_time(day + timedelta(days=1), MIDNIGHT, self.zone))
        self._servers[guild_id] = server
        return server

    def forget(self) -> None:
        """Every server written again at its next command (tests; a process that lost its database)."""
        self._servers.clear()
