"""« Montrer » on a HOSS booster's private flip, beyond what every game's pull does (tests/e2e/test_show_off.py):
twenty clicks at once make one post; a card below Or gets no button, a face-down one gets it once flipped;
a face-down copy or someone else's is refused privately, and so is a channel where the bot may not attach
files."""

from __future__ import annotations

import asyncio

from sandbox.harness import BotHarness
from tests.e2e.hoss.helpers import booster_with, hoss, text
from tests.e2e.show_off import NOT_ELIGIBLE, public_posts


async def test_an_or_pull_is_shown_once_and_a_basique_gets_no_button(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await booster_with(harness, alice, {0: "or", 1: "divin"})
    flipped = await harness.emu.click(alice, "Retourner")
    assert flipped.message is not None
    opening = (await hoss(harness).shop.unopened(alice.id))[0]
    first = (await hoss(harness).shop.opening(alice.id, opening.id)).cards[0]
    assert first.card is not None
    assert first.copy_id is not None
    name = first.card.name.fr
    shows = [label for label in flipped.message.button_labels if label.startswith("Montrer")]
    assert shows == [f"Montrer\u00a0: {name}"]  # the Divin card is still face down

    clicks = [harness.emu.click(alice, f"Montrer\u00a0: {name}", message=flipped.message) for _ in range(20)]
    answers = await asyncio.gather(*clicks)
    await harness.settle()
    said = [text(a) for a in answers]
    assert said.count("Votre carte est montrée dans ce salon.") == 1
    assert said.count("Cette carte a déjà été montrée.") == 19
    (post,) = public_posts(harness)
    assert f"<@{alice.id}> montre sa carte **{name}** (Or, HOSS TCG)\u202f!" in post.render()
    (picture,) = post.attachments
    assert picture.filename == f"hoss-{first.card.id}.png"
    assert picture.data.startswith(b"\x89PNG")

    # the Divin card once flipped gets its own button; the Basique cards never do
    everything = await harness.emu.click(alice, "Tout retourner")
    assert everything.message is not None
    shows = [label for label in everything.message.button_labels if label.startswith("Montrer")]
    assert len(shows) == 2


async def test_a_face_down_sold_or_foreign_copy_is_refused(harness: BotHarness) -> None:
    alice, carol = harness.user("alice"), harness.user("carol")
    await booster_with(harness, alice, {0: "or", 1: "platine"})
    await harness.emu.click(alice, "Retourner")
    opening = (await hoss(harness).shop.unopened(alice.id))[0]
    cards = (await hoss(harness).shop.opening(alice.id, opening.id)).cards
    assert cards[1].copy_id is None  # face down: its id is not even shown
    assert harness.bot is not None
    hidden = await harness.bot.services.db.read(
        lambda conn: conn.execute(
            "SELECT card_id FROM hoss_opening_cards WHERE opening_id = ? AND position = 1", (opening.id,)
        ).fetchone()[0]
    )
    shown = cards[0].copy_id
    for user, copy in ((alice, hidden), (carol, shown)):
        tried = await harness.emu.forge_component(user, f"showoff:hoss:{copy}")
        assert tried.message is not None
        assert tried.message.ephemeral_to == user
        assert NOT_ELIGIBLE in text(tried)
    await harness.settle()
    assert public_posts(harness) == []


async def test_a_channel_without_attach_files_is_refused_before_anything(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await booster_with(harness, alice, {0: "or"})
    flipped = await harness.emu.click(alice, "Retourner")
    assert flipped.message is not None
    label = next(label for label in flipped.message.button_labels if label.startswith("Montrer"))
    harness.emu.world.deny_bot(flipped.message.channel, "attach_files")
    refused = await harness.emu.click(alice, label, message=flipped.message)
    assert refused.message is not None
    assert refused.message.ephemeral_to == alice
    assert "Joindre des fichiers" in text(refused)
    await harness.settle()
    assert public_posts(harness) == []
