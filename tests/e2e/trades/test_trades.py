"""Trades and gifts through Discord: two private windows that follow each other's offers, a confirmation
voided by a change, the swap, a gift, the abuse rules and the trade log, as users see them."""

from __future__ import annotations

from datetime import timedelta

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from tests.e2e.trades.authorization import GAME, members_for_long, mint
from tests.fixtures import postgres


def newest_dm(h: BotHarness, user: User) -> RecordedMessage:
    return h.emu.dm_messages(user)[-1]


def owners(h: BotHarness) -> list[tuple[int, int, str | None]]:
    with postgres.connect(h.db_path) as conn:
        return conn.execute("SELECT id, owner_id, locked_by FROM cards ORDER BY id").fetchall()


async def test_a_trade_from_two_windows_to_the_swap(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    (mine,), (theirs,) = await mint(h, alice), await mint(h, bob)
    await h.emu.run_command(bob, "profile")  # the bot learns bob's language

    opened = await h.emu.run_command(alice, "échange avec", {"joueur": bob, "jeu": GAME})
    assert opened.ephemeral
    assert "Échange n° 1 ouvert" in opened.message.render()  # type: ignore[union-attr]
    await h.settle()
    assert "Trade #1" in newest_dm(h, bob).render()  # bob's window, in his language

    await h.emu.run_command(alice, "échange carte", {"échange": 1, "carte": f"#{mine}"})
    first_window = await h.emu.run_command(bob, "trade money", {"trade": 1, "amount": 50})
    await h.settle()
    assert "50" in newest_dm(h, alice).render()  # alice sees bob's offer live
    assert owners(h)[0] == (mine, alice.id, "trade:1")

    # bob confirms, then alice changes her offer: bob's confirmation is void and his old window is stale
    await h.emu.click(bob, "Confirm", message=first_window.message)
    await h.emu.run_command(alice, "échange carte", {"échange": 1, "carte": f"#{theirs}"})  # not hers
    latest = await h.emu.run_command(alice, "échange monnaie", {"échange": 1, "montant": 5})
    await h.settle()
    stale = await h.emu.click(bob, "Confirm", message=first_window.message)
    assert "changed since" in stale.message.render()  # type: ignore[union-attr]
    assert stale.ephemeral

    # both confirm what they now see, bob from his DM window (no server there)
    await h.emu.click(alice, "Confirmer", message=latest.message)
    await h.settle()
    done = await h.emu.click(bob, "Confirm", message=newest_dm(h, bob))
    await h.settle()
    assert "done" in done.message.render()  # type: ignore[union-attr]
    assert owners(h) == [(mine, bob.id, None), (theirs, bob.id, None)]
    assert "conclu" in newest_dm(h, alice).content
    assert "done" in newest_dm(h, bob).content


async def test_a_gift_waits_for_its_givers_confirmation(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    members_for_long(h, alice, bob)
    (mine,) = await mint(h, alice)
    ready = await h.emu.run_command(alice, "cadeau", {"joueur": bob, "jeu": GAME, "carte": f"#{mine}"})
    assert "Cadeau n° 1 prêt" in ready.message.render()  # type: ignore[union-attr]
    await h.settle()
    assert h.emu.dm_messages(bob) == []  # nothing until it is sent
    forged = await h.emu.forge_component(bob, "trade:confirm:1:0", channel=h.games_channel)
    # a gift not delivered is unknown to its recipient, even through a forged button
    assert "Aucun échange n° 1 ne vous concerne" in forged.message.render()  # type: ignore[union-attr]
    await h.emu.click(alice, "Confirmer", message=ready.message)
    await h.settle()
    assert owners(h) == [(mine, bob.id, None)]
    assert "Cadeau n° 1 reçu de" in newest_dm(h, bob).content


async def test_new_members_cannot_trade_and_an_open_trade_expires(harness: BotHarness) -> None:
    h = harness
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    members_for_long(h, alice, bob)
    assert h.guild is not None
    h.emu.world.set_joined(carol, h.guild, h.clock.now() - timedelta(days=2))
    refused = await h.emu.run_command(alice, "échange avec", {"joueur": carol, "jeu": GAME})
    assert "doit être membre du serveur depuis 7 jours" in refused.message.render()  # type: ignore[union-attr]

    (mine,) = await mint(h, alice)
    await h.emu.run_command(alice, "échange avec", {"joueur": bob, "jeu": GAME})
    window = await h.emu.run_command(alice, "échange carte", {"échange": 1, "carte": f"#{mine}"})
    assert await h.advance(timedelta(hours=1)) == 1
    assert owners(h) == [(mine, alice.id, None)]
    assert "expiré" in newest_dm(h, alice).content
    late = await h.emu.click(alice, "Confirmer", message=window.message)
    assert "est terminé (expiré)" in late.message.render()  # type: ignore[union-attr]
    assert late.ephemeral


async def test_the_log_is_the_players_own_and_the_whole_server_for_its_admins(harness: BotHarness) -> None:
    h = harness
    alice, bob, olivia = h.user("alice"), h.user("bob"), h.user("olivia")
    members_for_long(h, alice, bob)
    ready = await h.emu.run_command(alice, "cadeau", {"joueur": bob, "jeu": GAME, "montant": 25})
    await h.emu.click(alice, "Confirmer", message=ready.message)
    await h.settle()
    mine = (await h.emu.run_command(alice, "échange historique")).message
    assert mine is not None
    assert "Cadeau n° 1" in mine.render()
    assert "conclu" in mine.render()
    admin = (await h.emu.run_command(olivia, "échange historique", {"joueur": alice})).message
    assert admin is not None
    assert "Cadeau n° 1" in admin.render()
    nosy = (await h.emu.run_command(bob, "échange historique", {"joueur": alice})).message
    assert nosy is not None
    assert "Seuls les admins" in nosy.render()
