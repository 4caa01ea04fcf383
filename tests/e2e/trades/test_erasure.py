"""Erasure meets trades and gifts, as users live it (the reproductions of docs/privacy.md's "What erasure
ends"): what was pending is cancelled and the other party told, no Discord id outlives the erasure, and a
gift not delivered stays invisible to its recipient."""

from __future__ import annotations

import json

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from store import schema
from tests.e2e.trades.authorization import GAME, members_for_long
from tests.fixtures import postgres


def shown(result: object) -> str:
    message = getattr(result, "message", None)
    assert isinstance(message, RecordedMessage), result
    return message.render()


def newest_dm(h: BotHarness, user: User) -> RecordedMessage:
    return h.emu.dm_messages(user)[-1]


async def erase(h: BotHarness, user: User) -> None:
    asked = await h.emu.run_command(user, "confidentialité supprimer")
    done = await h.emu.click(user, "Tout effacer", message=asked.message)
    assert "effacées" in shown(done)
    await h.settle()


def mentions_of(h: BotHarness, player: int) -> list[str]:
    """Every column where the id still appears, as a number or inside a text."""
    found = []
    with postgres.connect(h.db_path) as conn:
        for table in schema.tables(conn):
            for column in schema.columns(conn, table):
                sql = f"SELECT COUNT(*) FROM {table} WHERE CAST({column.name} AS TEXT) LIKE ?"
                if conn.execute(sql, (f"%{player}%",)).fetchone()[0]:
                    found.append(f"{table}.{column.name}")
    return found


async def test_erasure_cancels_the_pending_trade_and_gift_and_tells_the_other_player(
    harness: BotHarness,
) -> None:
    """The reproduction: alice confirmed a trade, bob sent her a gift of 25, she erased her data; bob's
    confirmations are refused, his copy and coins stay his, and he is told why in the window and by DM."""
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    members_for_long(h, alice, bob)
    await h.emu.run_command(alice, "pillz collection")
    await h.emu.run_command(bob, "pillz collection")
    await h.emu.run_command(alice, "trade with", {"player": bob, "game": GAME})
    await h.emu.run_command(bob, "trade card", {"trade": 1, "card": "Abordeur"})
    window = await h.emu.run_command(alice, "trade show", {"trade": 1})
    await h.emu.click(alice, "Confirmer", message=window.message)
    await h.emu.run_command(bob, "gift", {"player": alice, "game": GAME, "amount": 25})
    await h.settle()
    with postgres.connect(h.db_path) as conn:
        before = conn.execute(
            "SELECT id, owner_id FROM cards WHERE owner_id = ? ORDER BY id", (bob.id,)
        ).fetchall()
        gold = conn.execute(
            "SELECT balance FROM wallets WHERE player_id = ? AND currency = 'pillz_gold'", (bob.id,)
        )
        bobs_gold = gold.fetchone()[0]

    await erase(h, alice)

    assert (
        "L'échange n° 1 a été annulé\u00a0: l'autre joueur a supprimé ses données."
        in h.emu.dm_messages(bob)[-2].render()
    )
    assert (
        "Le cadeau n° 2 a été annulé\u00a0: son destinataire a supprimé ses données."
        in newest_dm(h, bob).render()
    )
    for trade in (1, 2):
        seen = await h.emu.run_command(bob, "trade show", {"trade": trade})
        text = shown(seen)
        assert "annulé\u00a0: l'autre joueur a supprimé ses données" in text
        assert "un joueur anonyme" in text
        assert "Confirmer" not in [b.label for b in seen.message.buttons]  # type: ignore[union-attr]
    stale = await h.emu.click(bob, "Confirmer", message=h.emu.dm_messages(bob)[0])  # an old window's button
    assert "supprimé ses données" in shown(stale)
    await h.settle()
    with postgres.connect(h.db_path) as conn:
        after = conn.execute(
            "SELECT id, owner_id FROM cards WHERE owner_id = ? ORDER BY id", (bob.id,)
        ).fetchall()
        gold = conn.execute(
            "SELECT balance FROM wallets WHERE player_id = ? AND currency = 'pillz_gold'", (bob.id,)
        )
        assert gold.fetchone()[0] == bobs_gold
        assert conn.execute("SELECT COUNT(*) FROM wallets WHERE player_id < 0").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM cards WHERE owner_id < 0").fetchone()[0] == 0
    assert after == before
    assert mentions_of(h, alice.id) == []


async def test_no_discord_id_outlives_erasure_in_columns_named_otherwise(harness: BotHarness) -> None:
    """`trades.ended_by` (who cancelled) and `game_pauses.paused_by` (who paused a game) held the id after
    erasure: found by their declaration now, not by their names."""
    h = harness
    alice, bob = h.user("alice", admin=True), h.user("bob")  # alice manages the server too
    members_for_long(h, alice, bob)
    await h.emu.run_command(alice, "pillz collection")
    await h.emu.run_command(bob, "pillz collection")
    await h.emu.run_command(alice, "trade with", {"player": bob, "game": GAME})
    await h.emu.run_command(alice, "trade cancel", {"trade": 1})
    await h.emu.run_command(alice, "setup pause", {"game": "hoss"})
    with postgres.connect(h.db_path) as conn:
        assert conn.execute("SELECT ended_by FROM trades").fetchone()[0] == alice.id
        assert conn.execute("SELECT paused_by FROM game_pauses").fetchone()[0] == alice.id
    await erase(h, alice)
    assert mentions_of(h, alice.id) == []
    with postgres.connect(h.db_path) as conn:
        assert conn.execute("SELECT ended_by FROM trades").fetchone()[0] < 0
        assert conn.execute("SELECT paused_by FROM game_pauses").fetchone()[0] < 0


async def test_a_cancelled_gift_reveals_nothing_to_its_recipient(harness: BotHarness) -> None:
    """bob makes a gift to alice and cancels it: her /trade history and her /privacy export know nothing
    of it, as docs/trades.md says."""
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    members_for_long(h, alice, bob)
    await h.emu.run_command(alice, "pillz collection")
    await h.emu.run_command(bob, "pillz collection")
    await h.emu.run_command(bob, "gift", {"player": alice, "game": GAME, "amount": 25})
    await h.emu.run_command(bob, "trade cancel", {"trade": 1})
    await h.settle()
    history = shown(await h.emu.run_command(alice, "trade history"))
    assert "n° 1" not in history
    assert "Aucun échange n° 1" in shown(await h.emu.run_command(alice, "trade show", {"trade": 1}))
    await h.emu.run_command(alice, "privacy export")
    await h.settle()
    (attachment,) = newest_dm(h, alice).attachments
    exported = json.loads(attachment.data)
    assert "trades" not in exported["tables"]
    assert "n° 1" in shown(await h.emu.run_command(bob, "trade history"))  # the giver keeps his own log
