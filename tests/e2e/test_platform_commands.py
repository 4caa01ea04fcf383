"""The platform's own commands, as users see them through Discord."""

from __future__ import annotations

import io

from PIL import Image

from sandbox.harness import BotHarness


def text_of(result: object) -> str:
    return result.message.render()  # type: ignore[attr-defined]


async def test_help_in_french_then_english(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    reply = await harness.emu.run_command(alice, "help")
    assert reply.ephemeral
    text = text_of(reply)
    assert "Aide" in text
    assert "/profil" in text
    assert "/paramètres langue" in text
    assert "/configuration" not in text
    assert "/admin" not in text
    bob = harness.user("bob", locale="en-US")
    text = text_of(await harness.emu.run_command(bob, "help"))
    assert "Help" in text
    assert "/profile" in text
    assert "/settings language" in text


async def test_help_shows_server_commands_to_those_who_can_use_them(harness: BotHarness) -> None:
    text = text_of(await harness.emu.run_command(harness.user("olivia"), "help"))
    assert "/configuration salon-parties" in text
    assert "/admin synchroniser" in text


async def test_french_command_names_are_accepted(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    reply = await harness.emu.run_command(alice, "paramètres langue", {"langue": "English"})
    assert "English" in text_of(reply)


async def test_settings_language_overrides_discord_locale(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    assert "Profil d'alice" in text_of(await harness.emu.run_command(alice, "profile"))
    await harness.emu.run_command(alice, "settings language", {"language": "en"})
    assert "alice's profile" in text_of(await harness.emu.run_command(alice, "profile"))
    reply = await harness.emu.run_command(alice, "settings language", {"language": "auto"})
    assert "Discord" in text_of(reply)
    assert "Profil d'alice" in text_of(await harness.emu.run_command(alice, "profile"))


async def test_unknown_discord_locale_gets_french(harness: BotHarness) -> None:
    hans = harness.user("hans", locale="de")
    assert "Profil de hans" in text_of(await harness.emu.run_command(hans, "profile"))


async def test_profile_of_someone_who_never_played(harness: BotHarness) -> None:
    alice, carol = harness.user("alice"), harness.user("carol")
    reply = await harness.emu.run_command(alice, "profile", {"player": carol})
    assert "n'a pas encore de profil" in text_of(reply)
    assert reply.ephemeral


async def test_setup_requires_manage_server_at_run_time(harness: BotHarness) -> None:
    """default_permissions only hides the command, and a server admin can re-grant it to everyone in the
    server's Integrations settings; a member without Manage Server is then refused by the bot itself."""
    mallory = harness.user("mallory", admin=False)
    harness.emu.enforce_default_permissions = False  # the re-grant
    reply = await harness.emu.run_command(mallory, "setup deadline", {"preset": "fast"})
    assert "Gérer le serveur" in text_of(reply)
    admin = harness.user("olivia")
    reply = await harness.emu.run_command(admin, "setup show")
    assert "Standard (24 h)" in text_of(reply)


async def test_setup_show_adds_each_games_settings(harness: BotHarness) -> None:
    """The games' lines come from their own /setup sections, in the order of the games' keys."""
    admin = harness.user("olivia")
    await harness.emu.run_command(admin, "setup pillz", {"secondes": 90})
    shown = text_of(await harness.emu.run_command(admin, "setup show"))
    assert "Standard (24 h)" in shown
    assert "rappels\u00a0: 12 h, 1 h" in shown
    assert "Pillz — temps par choix\u00a0: 90 s" in shown
    assert shown.index("Chocobataille —") < shown.index("Pillz —")


async def test_setup_saves_channels_and_deadline(harness: BotHarness) -> None:
    admin = harness.user("olivia")
    channel = harness.games_channel
    assert channel is not None
    reply = await harness.emu.run_command(admin, "configuration salon-parties", {"salon": channel})
    assert f"<#{channel.id}>" in text_of(reply)
    reply = await harness.emu.run_command(admin, "setup deadline", {"preset": "relaxed"})
    assert "Détendu (48 h)" in text_of(reply)
    assert harness.bot is not None
    assert harness.guild is not None
    stored = await harness.bot.services.guilds.get(harness.guild.id)
    assert stored.games_channel_id == channel.id
    assert stored.deadline_preset == "relaxed"


async def test_admin_sync_is_owner_only(harness: BotHarness) -> None:
    mallory = harness.user("mallory", admin=True)
    assert "propriétaires" in text_of(await harness.emu.run_command(mallory, "admin sync"))
    olivia = harness.user("olivia")
    reply = await harness.emu.run_command(olivia, "admin sync")
    assert "commandes publiées" in text_of(reply)
    assert harness.emu.registered_commands()  # the global set now exists


async def test_new_players_get_their_hoss_gold(harness: BotHarness) -> None:
    """Each wallet is named by its game, so « Pièces » (Pillz) and « Pièces d'or » (Immortal's War) cannot
    be taken for one another."""
    text = text_of(await harness.emu.run_command(harness.user("alice"), "profile"))
    assert "HOSS TCG\u00a0: 300 or" in text
    assert "Immortal's War\u00a0: 100 pièces d'or, 0 fragment d'âme" in text
    english = text_of(await harness.emu.run_command(harness.user("bob", locale="en-GB"), "profile"))
    assert "HOSS TCG: 300 gold" in english


async def test_card_shows_a_hoss_card_in_each_language(harness: BotHarness) -> None:
    alice, bob = harness.user("alice", locale="fr"), harness.user("bob", locale="en-GB")
    french = text_of(await harness.emu.run_command(alice, "carte", {"nom": "hoss:orc_guerrier_1"}))
    assert "HOSS TCG" in french
    assert "Race: Orc" in french
    assert "Classe: Guerrier" in french
    assert "Saignement" in french
    english = text_of(await harness.emu.run_command(bob, "card", {"name": "hoss:orc_guerrier_1"}))
    assert "Class: Warrior" in english
    assert "Bleeding" in english
    assert "HP:" in english


async def test_card_shows_the_drawn_card_as_an_attached_image(harness: BotHarness) -> None:
    alice = harness.user("alice", locale="fr")
    reply = await harness.emu.run_command(alice, "carte", {"nom": "pillz:ashigaru-taisho-hayate"})
    assert reply.message is not None
    (attachment,) = reply.message.attachments
    assert attachment.filename == "pillz-ashigaru-taisho-hayate.png"
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG"
    assert image.size == (360, 504)
    (embed,) = reply.message.embeds
    assert embed["image"]["url"] == "attachment://pillz-ashigaru-taisho-hayate.png"
    assert embed["color"] == 0xE05060  # four stars
    shown = (
        ("choco:eclair_de_poche", 0xB8733A),
        ("hoss:orc_guerrier_1", 0x9A9AA2),
        ("dinocard:kraken", 0xE8B440),  # rare
        ("immortals:archdemon", 0xD070C0),  # tier 3, légendaire
    )
    for name, color in shown:
        reply = await harness.emu.run_command(alice, "carte", {"nom": name})
        assert reply.message is not None
        (attachment,) = reply.message.attachments
        assert attachment.filename == name.replace(":", "-") + ".png"
        assert Image.open(io.BytesIO(attachment.data)).size == (360, 504)
        assert reply.message.embeds[0]["color"] == color


async def test_profile_attaches_its_picture_in_the_readers_language(harness: BotHarness) -> None:
    """Your own /profile and another player's each attach the profile's picture, shown in the embed;
    another's is not yours (no wallets, no cards: services/community/profile_card.py)."""
    alice, bob = harness.user("alice"), harness.user("bob")
    await harness.emu.run_command(bob, "profile")
    own = await harness.emu.run_command(alice, "profile")
    other = await harness.emu.run_command(alice, "profile", {"player": bob})
    pictures = []
    for reply, who in ((own, alice), (other, bob)):
        assert reply.message is not None
        (picture,) = reply.message.attachments
        assert picture.filename == f"profile-{who.id}.png"
        assert reply.message.embeds[0]["image"]["url"] == f"attachment://{picture.filename}"
        image = Image.open(io.BytesIO(picture.data))
        assert image.size == (720, 526)
        pictures.append(picture.data)
    assert pictures[0] != pictures[1]


async def test_help_credits_the_artworks_authors_and_licence(harness: BotHarness) -> None:
    """CC BY asks each icon's author credited: a page of /help lists them, with the licence, in the
    reader's language."""
    alice = harness.user("alice", locale="fr")
    reply = await harness.emu.run_command(alice, "help")
    assert reply.message is not None
    page = await harness.emu.select(alice, "Crédits des illustrations", message=reply.message)
    assert page.message is not None
    text = text_of(page)
    for expected in (
        "Crédits des illustrations",
        "game-icons.net",
        "CC BY 3.0",
        "Lorc",
        "Delapouite",
        "DejaVu",
    ):
        assert expected in text
    bob = harness.user("bob", locale="en-US")
    reply = await harness.emu.run_command(bob, "help")
    assert reply.message is not None
    page = await harness.emu.select(bob, "Artwork credits", message=reply.message)
    assert "Icon authors" in text_of(page)
