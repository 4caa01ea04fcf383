"""A Pillz tournament run by the bot's own services, in a process the crash test kills with SIGKILL and
starts again (tests/services/community/tournaments/test_crash.py).

Each life (forked by `crash_worker.serve`, so a restart does not pay the imports again) opens the
database the way the bot does, on a manual clock that starts where the last life's clock was written,
makes sure the tournament exists and its eight players registered (each behind its own key or refusal),
then turns the rounds: the present players click « Prêt » on their waiting matches, the clock moves on by
three minutes and what fell due runs (the AI's moves at each choice's timeout, the deadlines, the steps
that close a round and open the next). It says `tick` after each turn — the parent may kill it at any
moment — and `done` once the tournament is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from core.clock import ManualClock
from core.settings import Settings
from engine.errors import DomainError
from services.community.tournaments.service import Creation
from services.infra.container import build_services
from store.connection import Connection
from tests.services.store.crash_worker import emit, serve

GUILD, CHANNEL, MANAGER = 500, 501, 10**17
PLAYERS = [10**17 + n for n in range(1, 9)]
ABSENT = PLAYERS[-1]
STEP = timedelta(minutes=3)


def saved_time(path: Path) -> datetime:
    """The clock of the last life, as it last wrote it (a little behind: what fell due runs again, once)."""
    try:
        return datetime.fromisoformat(path.read_text().strip())
    except (OSError, ValueError):
        return datetime(2026, 1, 12, 18, tzinfo=UTC)


def pending(conn: Connection) -> list[tuple[int, int]]:
    rows = conn.execute(
        "SELECT m.id, s.player_id FROM matches m JOIN match_seats s ON s.match_id = m.id"
        " WHERE m.kind = 'tournament' AND m.status = 'pending' ORDER BY m.id, s.seat"
    ).fetchall()
    return [(int(m), int(p)) for m, p in rows]


async def life(spec: dict[str, Any]) -> None:
    clock_file = Path(spec["clock"])
    clock = ManualClock(saved_time(clock_file))
    settings = Settings(_env_file=None, discord_token="token", database_path=Path(spec["db"]))
    services = await build_services(settings, clock, rng_seed=11)
    await services.scheduler.run_due()  # what fell due while this process was dead
    asked = Creation(game="pillz", format="swiss", max_players=8, closes="1h", round_hours=1, fee=50)
    t = await services.tournaments.create(GUILD, CHANNEL, MANAGER, manages=True, asked=asked, key="crash")
    for player in PLAYERS:
        with contextlib.suppress(DomainError):  # registered by an earlier life, or already started
            await services.tournaments.join(GUILD, t.id, player, f"joueur {player % 100}")
    emit("ready")
    duels = services.games["pillz"].duels.tournament
    while (await services.tournaments.get(t.id)).status in ("open", "running"):
        for match, player in await services.db.read(pending):
            if player != ABSENT:
                with contextlib.suppress(DomainError):  # ready already
                    await duels.ready(match, player, guild=GUILD)
        clock.advance(STEP)
        await asyncio.to_thread(clock_file.write_text, clock.now().isoformat())
        await services.scheduler.run_due()
        emit("tick")
    emit("done")
    await services.close()


if __name__ == "__main__":
    serve(life)
