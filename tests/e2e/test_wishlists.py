"""Wishlists through Discord: `/souhaits ajouter` with the card's autocomplete, `liste`, `retirer`, the
refusals, and `/paramètres souhaits`."""

from __future__ import annotations

from sandbox.harness import BotHarness


async def test_a_wishlist_is_added_to_listed_and_emptied(harness: BotHarness) -> None:
    h = harness
    alice = h.user("alice")
    choices = await h.emu.autocomplete(alice, "souhaits ajouter", "carte", "piquier")
    assert choices, "the card's name is completed"
    name, value = choices[0]["name"], choices[0]["value"]
    assert "HOSS TCG" in name

    added = await h.emu.run_command(alice, "souhaits ajouter", {"carte": value})
    listed = await h.emu.run_command(alice, "souhaits liste")
    mine = await h.emu.autocomplete(alice, "souhaits retirer", "carte", "")
    removed = await h.emu.run_command(alice, "souhaits retirer", {"carte": mine[0]["value"]})
    gone = await h.emu.run_command(alice, "souhaits retirer", {"carte": mine[0]["value"]})
    empty = await h.emu.run_command(alice, "souhaits liste")

    for reply in (added, listed, removed, gone, empty):
        assert reply.message is not None
        assert reply.message.ephemeral
    assert added.message is not None
    assert "(1/10 pour ce jeu)" in added.message.render()
    assert listed.message is not None
    assert "**HOSS TCG** (1/10)" in listed.message.render()
    assert gone.message is not None
    assert "n'est pas sur votre liste" in gone.message.render()
    assert empty.message is not None
    assert "Votre liste de souhaits est vide" in empty.message.render()


async def test_an_unknown_card_is_refused_with_what_was_meant(harness: BotHarness) -> None:
    reply = await harness.emu.run_command(
        harness.user("alice"), "souhaits ajouter", {"carte": "Piquier de la gard"}
    )

    assert reply.message is not None
    assert reply.message.ephemeral
    assert "Piquier de la garde" in reply.message.render()


async def test_the_alerts_are_turned_off_and_on(harness: BotHarness) -> None:
    alice = harness.user("alice")
    off = await harness.emu.run_command(alice, "paramètres souhaits", {"état": "Désactivées"})
    assert off.message is not None
    assert "plus de mention" in off.message.render()
    assert harness.bot is not None
    alerts = await harness.bot.services.db.read(
        lambda conn: conn.execute("SELECT wish_alerts FROM players WHERE id = ?", (alice.id,)).fetchone()[0]
    )
    assert alerts == 0
