"""What a command costs the database, through Discord (issue 19): a known player's /profile and
/hoss collection are pure reads, take no turn of the single writer and do not wait behind a write."""

from __future__ import annotations

import asyncio
import gc
import threading
from pathlib import Path
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket

import discord_app.bot as bot_module
from discord_app.bot import GC_THRESHOLDS
from emulator import InteractionResult
from emulator.records import walk_components
from sandbox.harness import BotHarness
from services.infra import ledger
from services.infra.players import PlayerService
from tests.conftest import MigratedCopy
from tests.e2e.hoss.helpers import give
from tests.support.registries import every_game


def _text(reply: InteractionResult) -> str:
    return str(reply.message.render()) if reply.message is not None else ""


async def test_a_known_players_profile_is_kept_and_costs_no_trip(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read once, then kept (services/infra/players.py `profiles`) until one of its lines changes."""
    monkeypatch.setattr(PlayerService, "check_kept_profiles", False)  # its fresh reads would count
    assert harness.bot is not None
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "profile")  # first use: the player is created, then read
    await harness.settle()
    db = harness.bot.services.db
    batches, reads = db.batches, db.reads
    for _ in range(10):
        reply = await harness.emu.run_command(alice, "profile")
        assert "Profil d'alice" in _text(reply)
    await harness.settle()
    await asyncio.sleep(0.05)  # a woken scheduler or deliverer would read by now
    assert db.batches == batches  # no write transaction at all
    assert db.reads - reads == 1  # `settle`'s flush of the deliverer finding nothing: no profile read
    code = every_game().currencies()[0].code
    now = harness.bot.services.clock.now()
    await db.write(lambda conn: ledger.credit(conn, now, alice.id, code, 5, ledger.Movement("test.grant")))
    reads = db.reads  # the balance line changed: the profile is read again, and kept again
    assert "Profil d'alice" in _text(await harness.emu.run_command(alice, "profile"))
    assert db.reads - reads == 1
    assert "Profil d'alice" in _text(await harness.emu.run_command(alice, "profile"))
    assert db.reads - reads == 1


async def test_collection_pages_read_the_copies_once_until_one_changes(harness: BotHarness) -> None:
    """The gate (a paused game, a banned player) read the server once; the player's copies are read by
    the first page and kept (services/hoss/collection.py `revealed`) until a copy of theirs changes."""
    assert harness.bot is not None
    dave = harness.user("dave")
    await give(harness, dave, "orc_mage_1")
    await harness.emu.run_command(dave, "hoss collection")
    await harness.settle()
    db = harness.bot.services.db
    batches, reads = db.batches, db.reads
    for _ in range(10):
        assert "(1 carte)" in _text(await harness.emu.run_command(dave, "hoss collection"))
    await harness.settle()
    await asyncio.sleep(0.05)
    assert db.batches == batches
    assert db.reads - reads == 1  # `settle`'s flush of the deliverer: no page read anything
    await give(harness, dave, "sq_guerrier_1")
    reads = db.reads
    assert "(2 cartes)" in _text(await harness.emu.run_command(dave, "hoss collection"))
    assert db.reads - reads == 1  # the copy given was announced: the page read again


async def test_a_collection_page_does_not_wait_behind_a_write(harness: BotHarness) -> None:
    assert harness.bot is not None
    bob = harness.user("bob")
    for card in ("sq_guerrier_1", "orc_mage_1", "syl_archer_1"):
        await give(harness, bob, card)
    await harness.emu.run_command(bob, "hoss collection")
    release = threading.Event()
    blocked = asyncio.ensure_future(harness.bot.services.db.write(lambda conn: release.wait(10)))
    try:
        await asyncio.sleep(0.05)  # the writer is inside the blocked unit
        page = await asyncio.wait_for(harness.emu.run_command(bob, "hoss collection"), timeout=3)
        profile = await asyncio.wait_for(harness.emu.run_command(bob, "profile"), timeout=3)
        assert not blocked.done()
    finally:
        release.set()
        await blocked
    assert page.ephemeral
    assert "(3 cartes)" in _text(page)
    assert "Profil de bob" in _text(profile)


async def test_a_language_change_is_seen_by_the_very_next_command(harness: BotHarness) -> None:
    carol = harness.user("carol", locale="fr")
    assert "Profil de carol" in _text(await harness.emu.run_command(carol, "profile"))
    assert "Profil de carol" in _text(await harness.emu.run_command(carol, "profile"))  # now remembered
    await harness.emu.run_command(carol, "settings language", {"language": "en"})
    assert "carol's profile" in _text(await harness.emu.run_command(carol, "profile"))


async def test_the_real_process_freezes_what_start_up_built(
    tmp_path: Path, migrated_copy: MigratedCopy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bot.py's bot freezes start-up's objects out of the full collections and raises the collector's
    thresholds before the gateway connects (the full collection then pauses no command), freezes what the
    first events built once ready, and gives both back at close."""
    events: list[str] = []
    settle_collector, freeze_young = bot_module.settle_collector, bot_module.freeze_young

    def settle() -> tuple[int, int, int]:
        events.append("settle")
        return settle_collector()

    def young() -> None:
        events.append("young")
        freeze_young()

    connect = DiscordWebSocket.from_client

    async def from_client(*args: Any, **kwargs: Any) -> DiscordWebSocket:
        events.append("gateway")
        return await connect(*args, **kwargs)

    monkeypatch.setattr(bot_module, "settle_collector", settle)
    monkeypatch.setattr(bot_module, "freeze_young", young)
    monkeypatch.setattr(DiscordWebSocket, "from_client", from_client)
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS
    harness = BotHarness(migrated_copy(tmp_path / "bot.sqlite3"), freeze_gc=True)
    await harness.start()
    try:
        assert harness.bot is not None
        assert harness.bot.gc_frozen
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == GC_THRESHOLDS
        for _ in range(1000):  # `ready` is dispatched to the bot as a task of its own
            if "young" in events:
                break
            await asyncio.sleep(0.01)
        assert events == ["settle", "gateway", "young"]
        assert "Profil de dora" in _text(await harness.emu.run_command(harness.user("dora"), "profile"))
    finally:
        await harness.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


async def test_sent_views_are_not_kept_and_their_components_still_answer(harness: BotHarness) -> None:
    """Every component answers through a DynamicItem registered at start-up, so discord.py keeps none of
    the views the bot sends: no 15-minute timer task per private reply with buttons, no entry per public
    message. The clicks on those messages still work."""
    assert harness.bot is not None
    erin = harness.user("erin")
    for card in ("sq_guerrier_1", "orc_mage_1"):
        await give(harness, erin, card)
    await harness.emu.run_command(erin, "hoss collection")
    await harness.settle()
    tasks = len(asyncio.all_tasks())
    pages = [await harness.emu.run_command(erin, "hoss collection") for _ in range(10)]
    await harness.settle()
    assert len(asyncio.all_tasks()) <= tasks  # before: one task more per reply, for 15 minutes
    store = harness.bot._connection._view_store
    assert (store._views, store._synced_message_views, store._modals) == ({}, {}, {})
    page = pages[-1].message
    assert page is not None
    (menu,) = [c for c in walk_components(page.components) if c.get("type") == 3]
    first = str(menu["options"][0]["value"])
    detail = await harness.emu.select(erin, values=[first], custom_id=str(menu["custom_id"]), message=page)
    assert detail.message is not None
    assert detail.message.ephemeral_to == erin
