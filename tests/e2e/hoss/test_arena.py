"""The HOSS Arena as players see it through Discord: registering with two decks (every refusal reason at
once), the standings around the player, an attack's public battle message against the defender's deck,
« Abandonner » (the owner only) settling it as a loss, and no second opponent within the hour."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import ManualClock
from emulator.world import User
from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import arena_veteran, gold, hoss, ledger_rows, register
from tests.e2e.messages import shown

pytestmark = pytest.mark.usefixtures("no_pacing")


async def standings(h: BotHarness, user: User) -> str:
    reply = await h.emu.run_command(user, "hoss arène classement")
    assert reply.message is not None
    assert reply.message.ephemeral
    return shown(reply.message)


async def test_register_attack_abandon_and_standings(harness: BotHarness) -> None:
    assert isinstance(harness.clock, ManualClock)
    alice, bob = harness.user("alice"), harness.user("bob")
    await arena_veteran(harness, alice)
    registered = await register(harness, alice)
    assert "Vous êtes inscrit à l'Arène de ce serveur" in registered
    # « Les cartes de tes decks enregistrés ne peuvent être ni vendues ni sacrifiées en fusion ; tu peux
    # toujours les améliorer. »: locked is no sale and no sacrifice, and a locked copy still gains stars.
    assert (
        "40 cartes verrouillées\u00a0: elles ne peuvent être ni vendues ni sacrifiées en fusion" in registered
    )
    assert "vous pouvez toujours les améliorer" in registered
    assert "ni vente ni fusion" not in registered
    assert "<t:" in registered  # the season's close, as a Discord timestamp
    assert "Engagement de la saison" in registered
    assert "dès que 2 joueurs sont inscrits" in await standings(harness, alice)
    again = await register(harness, alice)
    assert "Decks de l'Arène enregistrés" in again
    assert "ni vente ni sacrifice en fusion ; toujours améliorables" in again
    await hoss(harness).decks.delete(alice.id, 1)  # an edit of the attack slot...
    cancelled = await harness.emu.run_command(alice, "hoss arène annuler")  # ...cancelled
    assert cancelled.message is not None
    assert cancelled.message.ephemeral
    assert "Changements annulés" in shown(cancelled.message)
    assert (await hoss(harness).decks.show(alice.id, 1)).valid
    await arena_veteran(harness, bob)
    await register(harness, bob)
    assert "pas encore au classement" in await standings(harness, alice)
    await harness.advance(timedelta(hours=1))  # the hourly ranking
    board = await standings(harness, alice)
    assert f"<@{alice.id}> — 0 pts, 0 victoire en attaque** ← vous" in board
    assert f"<@{bob.id}> — 0 pts" in board

    before = (await gold(harness, alice), await gold(harness, bob))
    attacked = await harness.emu.run_command(alice, "hoss arène attaquer")
    assert attacked.message is not None
    assert not attacked.message.ephemeral
    public = attacked.message
    text = shown(public)
    assert "Combat d'Arène n°" in text
    assert f"<@{alice.id}> attaque la défense de <@{bob.id}>" in text
    assert "Défense (IA)" in text
    assert public.button_labels == ["Décider", "Passer à la fin", "Abandonner"]

    refused = await harness.emu.click(bob, "Abandonner", message=public)
    assert refused.message is not None
    assert refused.message.ephemeral
    assert "ne vous est pas destiné" in shown(refused.message)

    # The battle's edits are paced (services/hoss/battle/edits.py): an edit queued while an earlier one
    # still waits is due a pace after it, on this test's unmoving clock never. The edits due now go out
    # first, as they do within a second in production, so that the abandon's edit is due at once.
    await harness.settle()
    await harness.emu.click(alice, "Abandonner", message=public)
    await harness.settle()
    final = [m for m in harness.emu.messages if m.id == public.id][-1]
    text = shown(final)
    assert f"<@{alice.id}> a abandonné le combat\u00a0: il compte comme une défaite." in text
    assert f"<@{alice.id}>\u00a0: 0 pts (+0), 5 or." in text
    assert f"Défense de <@{bob.id}>\u00a0: 1 pts (+1), 10 or." in text
    assert final.button_labels == []
    assert (await gold(harness, alice), await gold(harness, bob)) == (before[0] + 5, before[1] + 10)
    assert ("hoss.arena.battle", 10) in await ledger_rows(harness, bob)  # defence gold, Bob offline

    again_attack = await harness.emu.run_command(alice, "hoss arène attaquer")
    assert again_attack.message is not None
    assert again_attack.message.ephemeral
    assert "Aucun adversaire disponible" in shown(again_attack.message)
    await harness.advance(timedelta(hours=1))
    board = await standings(harness, bob)
    assert board.index(f"<@{bob.id}>") < board.index(f"<@{alice.id}>")
    assert f"<@{bob.id}> — 1 pts, 0 victoire en attaque** ← vous" in board
    assert harness.unexpected_errors == []


async def test_a_refused_registration_lists_every_reason_and_locks_nothing(harness: BotHarness) -> None:
    carol = harness.user("carol")
    await arena_veteran(harness, carol, ranks=2)  # no Maître: all 12 lines stop at Rang 2
    reply = await register(harness, carol)
    assert "Inscription refusée, rien n'a changé" in reply
    assert reply.count("doit avoir son Rang 1, son Rang 2 et son Rang 3") == 12
    assert harness.bot is not None
    locked = await harness.bot.services.db.read(
        lambda conn: conn.execute("SELECT COUNT(*) FROM cards WHERE locked_by IS NOT NULL").fetchone()[0]
    )
    assert locked == 0


async def test_an_attack_before_registering_is_refused(harness: BotHarness) -> None:
    dave = harness.user("dave")
    reply = await harness.emu.run_command(dave, "hoss arène attaquer")
    assert reply.message is not None
    assert reply.message.ephemeral
    assert "pas inscrit à l'Arène de ce serveur" in shown(reply.message)
