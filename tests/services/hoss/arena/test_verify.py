"""A closed Arena season's opponent draws, checked by anyone: the record the bot gives (seed, every attack
with its candidates) verifies, the standalone script agrees, a tampered draw fails, and an open season
keeps its seed secret."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.hoss import ArenaResult, format_season
from services.hoss.arena.verify import NoSeason, SeasonStillOpen
from services.infra.games import GameRegistry
from store.connection import Connection
from tests.services.hoss.arena import GUILD, MONDAY, OTHER, PARIS, World, ranked_season

ROOT = Path(__file__).resolve().parents[4]
CLOSE = datetime(2026, 1, 12, 0, 0, tzinfo=PARIS).astimezone(UTC)


async def attacks(world: World) -> None:
    """Four attacks drawn and settled, then the season closed."""
    for attacker in (1, 2, 3, 1):
        attack = await world.arena.draw_opponent(GUILD, attacker)
        await world.arena.settle(attack.id, ArenaResult.WIN, f"test:{attack.id}")
    world.clock.set(CLOSE + timedelta(minutes=1))
    await world.sched.run_due()


def script(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "verify_raffle.py"), str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


async def test_an_open_season_keeps_its_seed(world: World, registry: GameRegistry) -> None:
    await ranked_season(world, 4, registry=registry)
    with pytest.raises(SeasonStillOpen):
        await world.arena.verify(GUILD, MONDAY + timedelta(days=3))
    with pytest.raises(NoSeason):
        await world.arena.verify(OTHER, MONDAY)


async def test_a_closed_season_verifies_here_and_with_the_script(
    world: World, tmp_path: Path, registry: GameRegistry
) -> None:
    await ranked_season(world, 4, registry=registry)
    await attacks(world)
    result = await world.arena.verify(GUILD, MONDAY + timedelta(days=6))  # any day of its week
    assert result.verdict.ok
    assert [(a.attacker, a.number) for a in result.record.attacks] == [(1, 1), (2, 1), (3, 1), (1, 2)]
    path = tmp_path / "arene.txt"
    path.write_text(format_season(result.record), encoding="utf-8")
    run = script(path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("OK: the seed matches its commitment, and every attack")


async def test_a_tampered_draw_fails(world: World, tmp_path: Path, registry: GameRegistry) -> None:
    await ranked_season(world, 4, registry=registry)
    await attacks(world)

    def tamper(conn: Connection) -> None:  # the first attack now names another of its candidates
        row = conn.execute(
            "SELECT id, defender_id, candidates FROM hoss_arena_attacks ORDER BY id LIMIT 1"
        ).fetchone()
        other = next(c for c in json.loads(row[2]) if c != row[1])
        conn.execute("UPDATE hoss_arena_attacks SET defender_id = ? WHERE id = ?", (other, row[0]))

    await world.db.write(tamper)
    result = await world.arena.verify(GUILD, MONDAY)
    assert result.verdict.reason == "opponents"
    path = tmp_path / "arene.txt"
    path.write_text(format_season(result.record), encoding="utf-8")
    run = script(path)
    assert run.returncode == 1
    assert run.stdout.startswith("FAILED: an attack's defender")
