"""A drop's seed never leaves the bot before its result: every version of every message, every file,
every private reply is scanned while the drop is open (tests/e2e/leak_scan.py); once it is drawn, the
seed is what « Vérifier » reveals. A negative control proves the scan finds a seed posted too early."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from emulator.records import RecordedMessage
from sandbox.harness import BotHarness
from tests.e2e.authorization import id_in
from tests.e2e.drop_scenes import a_drop
from tests.e2e.leak_scan import LeakScan, Secret

pytestmark = pytest.mark.sweep


async def seed_of(h: BotHarness) -> str:
    assert h.bot is not None
    return str(
        await h.bot.services.db.read(lambda conn: conn.execute("SELECT seed FROM drops").fetchone()[0])
    )


def seed_secret(seed: str) -> list[Secret]:
    return [Secret(f"drop seed {seed[:8]}…", re.compile(re.escape(seed), re.IGNORECASE))]


async def test_an_open_drops_seed_reaches_nobody_until_its_result(drops_harness: BotHarness) -> None:
    h = drops_harness
    scan = LeakScan(h.emu)
    drop: RecordedMessage = await a_drop(h)
    seed = await seed_of(h)
    secrets = seed_secret(seed)
    assert scan.scan(secrets, {}) == []

    for name in ("alice", "bob", "alice"):
        await h.emu.click(h.user(name), "Prendre", message=drop)
        assert scan.scan(secrets, {}) == [], scan.report()
    drop_id = id_in(drop, "drops:take:")
    forged = await h.emu.forge_component(h.user("carol"), f"drops:verify:{drop_id}")
    assert forged.message is not None
    assert "pas encore eu lieu" in forged.message.render()
    assert scan.scan(secrets, {}) == [], scan.report()

    await h.advance(timedelta(seconds=10))
    assert scan.scan(secrets, {}) == [], scan.report()  # the result itself does not show the seed
    proof = await h.emu.click(h.user("carol"), "Vérifier", message=drop)
    assert proof.message is not None
    assert seed in proof.message.render()  # revealed after the draw, by the proof
    assert scan.pieces > 10


async def test_the_scan_finds_a_seed_posted_before_the_result(drops_harness: BotHarness) -> None:
    h = drops_harness
    scan = LeakScan(h.emu)
    await a_drop(h)
    seed = await seed_of(h)
    assert h.games_channel is not None
    h.emu.create_message(h.games_channel, h.emu.world.bot, {"content": f"graine : {seed.upper()}"})

    (found,) = scan.scan(seed_secret(seed), {})

    assert found.piece.part == "content"
