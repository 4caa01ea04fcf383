"""One bot process of a fleet of two, for tests/postgresql/test_rate_limit_processes.py: discord.py's client
with the limiter and the shared pause that discord_app/bot.py installs (the same classes, the same trace
on discord.py's session), on the fleet's PostgreSQL database, without the rest of the bot (a whole bot
process takes 5 to 20 s to start here; this takes about one).

Argument: a JSON spec (`rest_base`, `token`, `url`, `shard`, `count`, `channel`, `posts`). Lines for the
parent: `ready` once logged in; `done` once its `posts` messages were all sent, each through discord.py's
HTTP client, all asked for at once when the parent writes a line on stdin.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import discord
from discord.http import Route

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from discord_app.rate_limit import FleetRateLimit
from services.infra.rate_limits import Limiter, SharedPause, fleet_size
from store.postgres import PostgresDatabase


def emit(line: str) -> None:
    print(line, flush=True)


async def main(spec: dict[str, Any]) -> None:
    Route.BASE = spec["rest_base"]
    db = PostgresDatabase(spec["url"])  # migrated by the test already
    await db.open()
    rate_limit = FleetRateLimit(Limiter(fleet_size(spec["count"], (spec["shard"],))))
    shared = SharedPause(db, rate_limit.limiter)
    await shared.start()
    rate_limit.share(shared.publish)
    client = discord.Client(intents=discord.Intents.none(), http_trace=rate_limit.trace)
    await client.login(spec["token"])
    emit("ready")
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=spec["channel"])
    await asyncio.gather(
        *(client.http.request(route, json={"content": f"{spec['shard']}-{n}"}) for n in range(spec["posts"]))
    )
    emit("done")
    await client.close()
    await shared.close()
    await db.close()


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
