"""A trade never breaks a deck silently, as players see it (docs/trades.md, "Decks"): the giver's window
warns before the confirmation, the partner reads nothing of the giver's deck, and the next practice names
the missing character in its reader's language with the command that completes the deck."""

from __future__ import annotations

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from tests.e2e.trades.authorization import members_for_long
from tests.fixtures import postgres


def newest_dm(h: BotHarness, user: User) -> RecordedMessage:
    return h.emu.dm_messages(user)[-1]


def starter_copy(h: BotHarness, owner: int) -> tuple[int, str]:
    """The lowest-numbered copy of the player's Pillz starter deck whose character has another name in
    English (the deck is drawn at random: « Arquebusier » is the same in both), and its character's id."""
    assert h.bot is not None
    with postgres.connect(h.db_path) as conn:
        rows = conn.execute(
            "SELECT id, card_key FROM cards WHERE owner_id = ? AND game = 'pillz' ORDER BY id", (owner,)
        ).fetchall()
    for copy, key in rows:
        card = h.bot.services.cards.get("pillz", str(key))
        if card is not None and card.name.fr != card.name.en:
            return int(copy), str(key)
    raise AssertionError(f"no character of the starter deck is named otherwise in English: {rows}")


async def test_the_giver_is_warned_then_practice_names_the_missing_character(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    await h.emu.run_command(alice, "pillz collection")  # her starter deck: slot 1, active
    await h.emu.run_command(bob, "profile")  # the bot learns bob's language
    copy, card = starter_copy(h, alice.id)
    assert h.bot is not None
    named = h.bot.services.cards.get("pillz", card)
    assert named is not None

    await h.emu.run_command(alice, "échange avec", {"joueur": bob, "jeu": "pillz"})
    offered = await h.emu.run_command(alice, "échange carte", {"échange": 1, "carte": f"#{copy}"})
    assert offered.message is not None
    window = offered.message.render()
    assert "⚠️ Vos decks" in window
    # bob reads English: the card's English name stands beside (docs/trades.md, "Card names across languages")
    assert named.name.fr != named.name.en
    both = f"{named.name.fr} ({named.name.en})"
    assert f"{both}** (#{copy})\u00a0: cette carte est dans votre deck actif (emplacement 1)" in window
    assert (
        "Aucun autre exemplaire ne la remplacera\u00a0: complétez-le avec `/pillz deck emplacement:1"
        in window
    )
    await h.settle()
    partner = newest_dm(h, bob).render()
    assert named.name.en in partner  # bob sees the offer...
    assert "deck" not in partner  # ...and nothing of alice's decks

    await h.emu.click(alice, "Confirmer", message=offered.message)
    await h.settle()
    await h.emu.click(bob, "Confirm", message=newest_dm(h, bob))
    await h.settle()
    notice = newest_dm(h, alice).render()
    assert "Échange n° 1\u00a0: vos decks" in notice
    assert f"(#{copy}) a quitté votre deck actif (emplacement 1)" in notice
    assert all("deck" not in dm.render() for dm in h.emu.dm_messages(bob))

    refused = await h.emu.run_command(alice, "pillz entraînement")
    assert refused.ephemeral
    assert refused.message is not None
    said = refused.message.render()
    assert f"Vous ne possédez plus {named.name.fr}" in said
    assert "`/pillz deck emplacement:1 personnages:…`" in said
    assert card not in said  # never the catalog id
