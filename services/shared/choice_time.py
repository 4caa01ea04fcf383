"""A server's time for each choice in a game's duels (`/setup <game>`): one row per server in the
game's own `<game>_guild_settings` table (`guild_id`, `choice_seconds`, `updated_at`), the default when a
server has none. Pillz and Immortal's War arm their choices' timeouts with it; a game names its table and
its refusal message, so the bounds, the upsert and the default are written once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from core.clock import Clock, to_db
from core.errors import BadInput
from store.connection import Connection
from store.db import Database

MIN_SECONDS, MAX_SECONDS, DEFAULT_SECONDS = 30, 3600, 120  # the migrations' CHECKs agree
_TABLE = re.compile(r"^[a-z_]+_guild_settings$")


@dataclass(frozen=True)
class ChoiceTime:
    table: str  # the game's settings table, e.g. "pillz_guild_settings" (its migration's CHECK agrees)
    error_key: str  # the refusal of a time out of bounds, with {minimum} and {maximum}
    default: int = DEFAULT_SECONDS
    minimum: int = MIN_SECONDS
    maximum: int = MAX_SECONDS

    def __post_init__(self) -> None:
        if not _TABLE.match(self.table):  # the name is written into SQL: only a plain identifier
            raise ValueError(f"not a settings table: {self.table!r}")

    def read(self, conn: Connection, guild_id: int | None) -> timedelta:
        """The server's time (the default for a match outside any server)."""
        row = None
        if guild_id is not None:
            row = conn.execute(
                f"SELECT choice_seconds FROM {self.table} WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        return timedelta(seconds=int(row[0]) if row else self.default)

    async def seconds(self, db: Database, guild_id: int) -> int:
        return int((await db.read(lambda conn: self.read(conn, guild_id))).total_seconds())

    async def save(self, db: Database, clock: Clock, guild_id: int, seconds: int) -> int:
        if not self.minimum <= seconds <= self.maximum:
            raise BadInput(self.error_key, minimum=self.minimum, maximum=self.maximum)
        now = clock.now()

        def unit(conn: Connection) -> int:
            conn.execute(
                f"INSERT INTO {self.table} (guild_id, choice_seconds, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET choice_seconds = excluded.choice_seconds,"
                " updated_at = excluded.updated_at",
                (guild_id, seconds, to_db(now)),
            )
            return seconds

        return await db.write(unit)
