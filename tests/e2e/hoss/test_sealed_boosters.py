"""Boosters bought sealed, as a player sees them through Discord: `/hoss booster nombre:3` shows the first
booster and mints its copies only; the collection counts the cards waiting in every booster; « Booster
suivant », clicked many times at once, opens the second booster once; `/hoss ouvrir` opens the last."""

from __future__ import annotations

import asyncio

from sandbox.harness import BotHarness
from store.connection import Connection
from tests.e2e.hoss.helpers import hoss, text

CLICKS = 12


async def copies(h: BotHarness, player: int) -> int:
    assert h.bot is not None

    def unit(conn: Connection) -> int:
        return int(conn.execute("SELECT COUNT(*) FROM cards WHERE owner_id = ?", (player,)).fetchone()[0])

    return await h.bot.services.db.read(unit)


async def test_a_purchase_of_three_mints_one_and_each_opening_mints_its_own(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "hoss booster", {"count": 3})
    assert text(reply).count("face cachée") == 6
    assert await copies(harness, alice.id) == 6
    reply = await harness.emu.run_command(alice, "hoss collection")
    assert "18 cartes attendent dans vos boosters (/hoss ouvrir)" in text(reply).replace("\u202f", " ")
    english = await harness.emu.run_command(alice, "hoss collection", locale="en-GB")
    assert "18 cards wait in your boosters (/hoss open)" in text(english)

    opened = await harness.emu.click(alice, "Tout retourner")
    assert opened.message is not None
    assert "Boosters encore fermés: 2" in text(opened)
    clicks = [harness.emu.click(alice, "Booster suivant", message=opened.message) for _ in range(CLICKS)]
    answers = await asyncio.gather(*clicks)
    await harness.settle()
    assert all(text(a).count("face cachée") == 6 for a in answers)
    assert await copies(harness, alice.id) == 12  # the second booster minted once
    second, third = await hoss(harness).shop.unopened(alice.id)  # the first is all face up
    assert (second.sealed, third.sealed) == (False, True)

    await harness.emu.click(alice, "Tout retourner")
    reply = await harness.emu.run_command(alice, "hoss ouvrir")
    assert text(reply).count("face cachée") == 6
    assert await copies(harness, alice.id) == 18
    (last,) = await hoss(harness).shop.unopened(alice.id)
    assert last.id == third.id
    assert not last.sealed
