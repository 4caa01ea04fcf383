"""/privacy through Discord: the export arrives by DM as a JSON file; the erasure asks first, then leaves
the player's Discord id nowhere in the database."""

from __future__ import annotations

import json

from sandbox.harness import BotHarness


def text_of(result: object) -> str:
    return result.message.render()  # type: ignore[attr-defined]


async def test_the_export_arrives_by_dm_as_a_json_file(harness: BotHarness) -> None:
    alice = harness.user("alice")
    reply = await harness.emu.run_command(alice, "confidentialité exporter")
    assert reply.ephemeral
    assert "message privé" in text_of(reply)
    await harness.settle()
    (dm,) = harness.emu.dm_messages(alice)
    (attachment,) = dm.attachments
    data = json.loads(attachment.data)
    assert data["player"]["id"] == alice.id
    assert {row["currency"] for row in data["tables"]["wallets"]} >= {"hoss_gold"}


async def test_the_erasure_asks_then_erases(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.emu.run_command(bob, "profile")
    asked = await harness.emu.run_command(alice, "privacy delete")
    assert "définitif" in text_of(asked)
    assert harness.bot is not None
    db = harness.bot.services.db
    sql = "SELECT COUNT(*) FROM players WHERE id = ?"
    assert await db.read(lambda conn: conn.execute(sql, (alice.id,)).fetchone()[0]) == 1
    done = await harness.emu.click(alice, "Tout effacer", message=asked.message)
    assert "effacées" in text_of(done)
    assert await db.read(lambda conn: conn.execute(sql, (alice.id,)).fetchone()[0]) == 0
    assert await db.read(lambda conn: conn.execute(sql, (bob.id,)).fetchone()[0]) == 1
    ledger = "SELECT COUNT(*) FROM ledger WHERE player_id = ?"
    assert await db.read(lambda conn: conn.execute(ledger, (alice.id,)).fetchone()[0]) == 0
