"""A Chocobataille hand as a picture: one PNG of its cards' figures in rows of four, with a « Voir une
carte » select that shows any of them whole, on `/choco hand`, « Voir ma main » and the « Voir ma main en
images » button of the DM that deals the hand. The DM itself is the hand's text and the select: the
picture is drawn when its owner asks for it, not at every call (docs/choco/referee.md, "Hands by DM").
Only the hand's owner gets it: no public post of the game carries a picture, and each strip names (in
its PNG description) exactly its owner's cards, in the hand's order."""

from __future__ import annotations

import io

from PIL import Image

from emulator.records import RecordedMessage
from emulator.world import User
from sandbox.harness import BotHarness
from services.choco.game_store import GameRow
from services.community.card_images import figures
from services.community.card_images.draw import HEIGHT, WIDTH
from tests.e2e.choco.helpers import challenge_accepted, choco, with_bronze_deck
from tests.e2e.messages import shown


def strip_of(message: RecordedMessage, game: GameRow) -> tuple[Image.Image, str]:
    files = [a for a in message.attachments if a.filename == f"choco-hand-{game.id}.png"]
    assert len(files) == 1, [a.filename for a in message.attachments]
    image = Image.open(io.BytesIO(files[0].data))
    image.load()
    return image, str(image.info["Description"])


def hand_names(h: BotHarness, game: GameRow, user: User) -> str:
    catalog = choco(h).economy.decks.catalog
    hand = game.state.sides[game.seat_of(user.id)].hand
    names = []
    for card in hand:
        entry = catalog.card(card.card_id)
        assert entry is not None
        names.append(entry.name.get("fr"))
    return " · ".join(names)


async def test_the_hand_dm_shows_a_strip_of_the_hand_on_demand_for_its_owner_only(
    harness: BotHarness,
) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob, wizards_only=False)
    game = await challenge_accepted(harness, alice, bob)
    for user in (alice, bob):
        dms = harness.emu.dm_messages(user)
        assert len(dms) == 1
        assert dms[0].uploads == []  # the DM deals the hand as text; its picture is one click away
        asked = await harness.emu.click(user, "Voir ma main en images", message=dms[0])
        assert asked.message is not None
        assert asked.message.ephemeral_to == user
        assert f"Votre main — partie n° {game.id}" in shown(asked.message)
        image, names = strip_of(asked.message, game)
        assert names == hand_names(harness, game, user)
        count = len(game.state.sides[game.seat_of(user.id)].hand)
        assert 1 <= count <= 8
        columns, rows = min(count, figures.PER_ROW), -(-count // figures.PER_ROW)
        width, height = figures.TILE
        assert image.size == (columns * (width + 8) + 8, rows * (height + 8) + 8)
        assert "Votre main" in shown(dms[0])  # the DM deals the hand itself, as text
        first = names.split(" · ")[0]
        assert first in dms[0].select_options
        whole = await harness.emu.select(user, first, message=dms[0])
        assert whole.message is not None
        assert whole.message.ephemeral_to == user
        (card,) = whole.message.attachments
        assert Image.open(io.BytesIO(card.data)).size == (WIDTH, HEIGHT)
        assert first in shown(whole.message)
    assert hand_names(harness, game, alice) != hand_names(harness, game, bob)
    public = [m for m in harness.emu.messages if m.ephemeral_to is None and not m.channel.is_dm]
    assert public
    assert [a.filename for m in public for a in m.uploads] == []

    # the private reply of /choco hand, and « Voir ma main » on the referee's post, show the same picture
    post = next(m for m in reversed(public) if "choco:hand:" in str(m.components))
    reply = await harness.emu.run_command(alice, "choco main", channel=post.channel)
    assert reply.message is not None
    assert reply.message.ephemeral_to == alice
    assert strip_of(reply.message, game)[1] == hand_names(harness, game, alice)
    click = await harness.emu.click(bob, "Voir ma main", message=post)
    assert click.message is not None
    assert click.message.ephemeral_to == bob
    assert strip_of(click.message, game)[1] == hand_names(harness, game, bob)


async def test_the_closed_dm_fallback_shows_the_hand_with_its_strip(harness: BotHarness) -> None:
    """alice's DMs are closed: her hand's DM becomes a « Voir ma main » button in the game's thread
    (the outbox's fallback), and its private reply, the DM, shows her hand and the strip on demand; bob's
    click on it gets neither her hand nor its picture."""
    alice, bob = harness.user("alice", dms_closed=True), harness.user("bob")
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob, wizards_only=False)
    game = await challenge_accepted(harness, alice, bob)
    assert harness.emu.dm_messages(alice) == []
    assert game.thread_id is not None
    thread = harness.emu.channel_messages(harness.emu.world.channels[game.thread_id])
    (fallback,) = [m for m in thread if "vos messages privés sont fermés" in shown(m)]
    assert fallback.uploads == []  # the public fallback carries no picture

    mine = await harness.emu.click(alice, "Voir ma main", message=fallback)
    assert mine.message is not None
    assert mine.message.ephemeral_to == alice
    assert f"Votre main — partie n° {game.id}" in shown(mine.message)
    pictured = await harness.emu.click(alice, "Voir ma main en images", message=mine.message)
    assert pictured.message is not None
    assert pictured.message.ephemeral_to == alice
    assert strip_of(pictured.message, game)[1] == hand_names(harness, game, alice)

    theirs = await harness.emu.click(bob, "Voir ma main", message=fallback)
    assert theirs.message is not None
    assert theirs.message.ephemeral_to == bob
    assert "Ce message ne vous est pas destiné." in shown(theirs.message)
    assert theirs.message.attachments == []
