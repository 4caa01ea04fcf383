"""Which games are paused in a server and who is banned from its games, kept in memory per server.

Every command and button of a game asks (`discord_app/gate.py`), and without this each would make a
database read, most of them to learn that nothing is paused and nobody banned. A server's pauses and
bans are read once, then kept until a ban, unban, pause or resume of that server (issue 19).

Every change of these tables goes through `AdminService`, whose unit calls `forget` for its server (in
the writer's thread) and announces `ACCESS_TOPIC` with the server's id: once the commit is known, every
process sharing the database forgets that server (`Database.subscribe_keys`; on PostgreSQL other processes
hear it by NOTIFY, and this one forgets again after the commit, since units run side by side there and a
read that began before the commit must not be kept). A read that raced with a `forget` is not stored:
`generation` moved in between. Notifications lost while the LISTEN connection was down forget every
server, as `players.LocaleCache` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.infra.keyed_cache import KeyedCache
from store.connection import Connection

ACCESS_CACHE_SIZE = 10_000  # servers kept; the oldest read goes first
# What a unit that changes a server's pauses or bans announces, with the server's id as key.
ACCESS_TOPIC = "access"


@dataclass(frozen=True)
class Access:
    """A server's paused games and banned players."""

    paused: frozenset[str]
    banned: frozenset[int]

    def refusal(self, game: str, player_id: int) -> str | None:
        if game in self.paused:
            return "admin.paused"
        return "admin.banned" if player_id in self.banned else None


def read_access(conn: Connection, guild_id: int) -> Access:
    paused = conn.execute("SELECT game FROM game_pauses WHERE guild_id = ?", (guild_id,)).fetchall()
    banned = conn.execute("SELECT player_id FROM guild_bans WHERE guild_id = ?", (guild_id,)).fetchall()
    return Access(frozenset(str(r[0]) for r in paused), frozenset(int(r[0]) for r in banned))


class AccessCache(KeyedCache[Access]):
    """Servers' pauses and bans, by server id (`ACCESS_TOPIC`)."""

    def __init__(self, capacity: int = ACCESS_CACHE_SIZE) -> None:
        super().__init__(capacity)
