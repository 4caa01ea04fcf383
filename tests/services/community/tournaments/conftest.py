"""A whole container (every game, the real catalogs) on a migrated copy and a manual clock: a tournament
reaches the games' matches through the registry, as in production."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import ManualClock
from core.settings import Settings
from engine.errors import DomainError
from services.community.tournaments.service import MAX_ROUNDS, Creation
from services.community.tournaments.store import Tournament
from services.infra import ledger
from services.infra.container import Services, build_services
from services.infra.players import ensure_player
from store.connection import Connection

GUILD, CHANNEL, ANNOUNCE = 500, 501, 502
MANAGER = 10**17
PLAYERS = [10**17 + n for n in range(1, 65)]
SEED = 37


@pytest.fixture
async def services(
    _postgresql_database: None, tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> AsyncIterator[Services]:
    """The whole container; with `TEST_DATABASE=postgresql`, on a PostgreSQL database of the test's own
    (`DATABASE_URL`, tests/conftest.py)."""
    path = migrated_copy(tmp_path / "bot.sqlite3")
    settings = Settings(_env_file=None, discord_token="token", database_path=path)
    built = await build_services(settings, ManualClock(), rng_seed=SEED)
    try:
        yield built
    finally:
        await built.close()


def clock_of(services: Services) -> ManualClock:
    clock = services.clock
    assert isinstance(clock, ManualClock)
    return clock


async def advance(services: Services, delta: timedelta) -> int:
    """Time passes and what fell due runs, as the scheduler's dispatcher would."""
    clock_of(services).advance(delta)
    return await services.scheduler.run_due()


def asked(game: str = "pillz", **changes: object) -> Creation:
    fields: dict[str, object] = {
        "game": game,
        "format": "swiss",
        "max_players": 64,
        "closes": "1h",
        "round_hours": 1,
    }
    fields.update(changes)
    return Creation(**fields)  # type: ignore[arg-type]


async def create(services: Services, game: str = "pillz", **changes: object) -> Tournament:
    return await services.tournaments.create(
        GUILD, CHANNEL, MANAGER, manages=True, asked=asked(game, **changes), key=f"k{changes}{game}"
    )


async def register(services: Services, t: Tournament, count: int) -> list[int]:
    players = PLAYERS[:count]
    for player in players:
        await services.tournaments.join(GUILD, t.id, player, f"joueur {player % 1000}")
    return players


async def give(services: Services, player: int, currency: str, amount: int) -> None:
    now = services.clock.now()

    def unit(conn: Connection) -> None:
        ensure_player(conn, player, now, services.registry)
        ledger.credit(conn, now, player, currency, amount, ledger.Movement("test.grant"))

    await services.db.write(unit)


def pending_seats(conn: Connection) -> list[tuple[int, str, int]]:
    rows = conn.execute(
        "SELECT m.id, m.game, s.player_id FROM matches m JOIN match_seats s ON s.match_id = m.id"
        " WHERE m.kind = 'tournament' AND m.status = 'pending' ORDER BY m.id, s.seat"
    ).fetchall()
    return [(int(m), str(g), int(p)) for m, g, p in rows]


async def ready_all(services: Services, present: list[int]) -> int:
    """Each present player clicks « Prêt » on their tournament match waiting for them; how many clicked."""
    clicked = 0
    for match_id, game, player in await services.db.read(pending_seats):
        if player in present:
            with contextlib.suppress(DomainError):  # already ready (an absent opponent's match)
                await services.games[game].duels.tournament.ready(match_id, player, guild=GUILD)
                clicked += 1
    return clicked


async def play_rounds(services: Services, t: Tournament, present: list[int], *, step: int = 3) -> Tournament:
    """Every round to the end: the present players get ready, then time passes (the AI choosing for them
    at each choice's timeout) until the round's deadline."""
    hours = t.round_hours
    for _ in range(MAX_ROUNDS):
        t = await services.tournaments.get(t.id)
        if t.status != "running":
            return t
        await ready_all(services, present)
        for _ in range(hours * 60 // step + 1):
            await advance(services, timedelta(minutes=step))
    return await services.tournaments.get(t.id)


async def rows(services: Services, sql: str, *args: object) -> list[tuple[object, ...]]:
    return await services.db.read(lambda conn: [tuple(r) for r in conn.execute(sql, args).fetchall()])
