"""Through Discord: a server that took a permission away from the bot.

A command that would post where the bot may not gets a private answer naming the permission and changes
nothing; `/setup` lists what the bot lacks in the channels it is given and refuses an announcement
channel for games; a game post Discord refuses is recorded and its players are told by DM.
"""

from __future__ import annotations

import pytest

from emulator.interactions import InteractionResult
from emulator.payloads import channel_payload
from sandbox.harness import BotHarness
from store.connection import Connection
from tests.e2e.choco.helpers import challenge_accepted, choco, with_bronze_deck
from tests.e2e.hoss.helpers import hoss, with_deck
from tests.e2e.messages import after_welcome


def private(result: InteractionResult) -> str:
    message = result.message
    assert message is not None
    assert message.ephemeral
    return after_welcome(message.content)


async def count(h: BotHarness, sql: str) -> int:
    assert h.bot is not None
    return int(await h.bot.services.db.read(lambda conn: conn.execute(sql).fetchone()[0]))


@pytest.mark.parametrize(
    ("locale", "command", "denied", "said", "not_said"),
    [
        (
            "fr",
            "hoss rang",
            "attach_files",
            ["Je ne peux pas jouer dans ce salon", "• Joindre des fichiers"],
            "Intégrer",
        ),
        ("en-US", "hoss rank", "view_channel", ["I cannot play in this channel", "• View Channels"], "Embed"),
    ],
)
async def test_a_battle_where_the_bot_cannot_post_its_log_is_refused_privately(
    harness: BotHarness, locale: str, command: str, denied: str, said: list[str], not_said: str
) -> None:
    """In the player's language, naming only what is missing, and no battle starts."""
    alice = harness.user("alice", locale=locale)
    await with_deck(harness, alice)
    assert harness.games_channel is not None
    harness.emu.world.deny_bot(harness.games_channel, denied)

    result = await harness.emu.run_command(
        alice, command, {command.split()[1]: 1}, channel=harness.games_channel
    )

    answer = private(result)
    assert all(part in answer for part in said)
    assert not_said not in answer
    assert await hoss(harness).ranked.current(alice.id) is None
    assert harness.emu.channel_messages(harness.games_channel) == []


async def test_a_challenge_where_the_game_thread_cannot_open_is_refused_privately(
    harness: BotHarness,
) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    assert harness.games_channel is not None
    harness.emu.world.deny_bot(harness.games_channel, "create_public_threads")

    made = await harness.emu.run_command(
        alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=harness.games_channel
    )

    assert "• Créer des fils publics" in private(made)
    assert await count(harness, "SELECT COUNT(*) FROM matches WHERE game = 'choco'") == 0


async def test_a_challenge_elsewhere_than_the_games_channel_needs_no_thread_here(harness: BotHarness) -> None:
    alice, bob, admin = harness.user("alice"), harness.user("bob"), harness.user("boss", admin=True)
    assert harness.guild is not None
    assert harness.games_channel is not None
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    await harness.emu.run_command(admin, "configuration salon-parties", {"salon": harness.games_channel})
    lobby = harness.emu.add_channel(harness.guild, "accueil")
    harness.emu.world.deny_bot(lobby, "create_public_threads")

    game = await challenge_accepted(harness, alice, bob, channel=lobby)

    thread = harness.emu.channel(f"Chocobataille n° {game.id}")
    assert thread.parent is harness.games_channel


async def test_setup_lists_what_the_bot_lacks_in_the_games_channel(harness: BotHarness) -> None:
    admin = harness.user("boss", admin=True)
    assert harness.games_channel is not None
    harness.emu.world.deny_bot(harness.games_channel, "manage_threads", "embed_links")

    answer = private(
        await harness.emu.run_command(admin, "configuration salon-parties", {"salon": harness.games_channel})
    )

    assert "Réglage enregistré." in answer
    assert "il me manque ces permissions" in answer
    assert "• Gérer les fils" in answer
    assert "• Intégrer des liens" in answer
    assert "Envoyer des messages dans les fils" not in answer
    assert harness.bot is not None
    assert harness.guild is not None
    saved = await harness.bot.services.guilds.get(harness.guild.id)
    assert saved.games_channel_id == harness.games_channel.id  # saved all the same: the admin can fix it


async def test_setup_says_when_nothing_is_missing(harness: BotHarness) -> None:
    admin = harness.user("boss", admin=True)
    assert harness.games_channel is not None

    answer = private(
        await harness.emu.run_command(admin, "configuration annonces", {"salon": harness.games_channel})
    )

    assert f"J'ai toutes les permissions dont j'ai besoin dans <#{harness.games_channel.id}>." in answer


async def test_an_announcement_channel_is_refused_as_the_games_channel(harness: BotHarness) -> None:
    admin = harness.user("boss", admin=True)
    assert harness.guild is not None
    assert harness.bot is not None
    news = harness.emu.world.add_channel(harness.guild, "nouvelles", announcement=True)
    await harness.emu.gateway.dispatch("CHANNEL_CREATE", channel_payload(harness.emu.world, news))
    await harness.settle()

    games = private(await harness.emu.run_command(admin, "configuration salon-parties", {"salon": news}))
    announce = private(await harness.emu.run_command(admin, "configuration annonces", {"salon": news}))

    assert "est un salon d'annonces" in games
    assert "Rien n'a été changé." in games
    assert "Réglage enregistré." in announce  # announcements may go there
    saved = await harness.bot.services.guilds.get(harness.guild.id)
    assert saved.games_channel_id is None
    assert saved.announce_channel_id == news.id


async def test_a_game_post_refused_by_discord_is_recorded_and_the_players_told_by_dm(
    harness: BotHarness,
) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    assert harness.games_channel is not None
    assert harness.bot is not None
    await with_bronze_deck(harness, alice)
    await with_bronze_deck(harness, bob)
    game = await challenge_accepted(harness, alice, bob, channel=harness.games_channel)
    thread = harness.emu.channel(f"Chocobataille n° {game.id}")
    posted = len(harness.emu.channel_messages(thread))
    dms = len(harness.emu.dm_messages(alice)), len(harness.emu.dm_messages(bob))
    harness.emu.world.deny_bot(harness.games_channel, "send_messages_in_threads")

    await harness.emu.run_command(alice, "choco abandon", channel=thread)
    await harness.emu.click(alice, "Abandonner")
    await harness.settle()

    assert len(harness.emu.channel_messages(thread)) == posted
    assert (await choco(harness).games.get(game.id)).state.winner is not None  # the game still ended
    told = [harness.emu.dm_messages(alice)[dms[0] :], harness.emu.dm_messages(bob)[dms[1] :]]
    for messages in told:
        [dm] = [m for m in messages if "Je n'ai pas pu publier" in m.content]
        assert f"<#{thread.id}>" in dm.content
        assert "• Envoyer des messages dans les fils" in dm.content

    def refused(conn: Connection) -> list[tuple[str, str]]:
        return conn.execute(
            "SELECT state, undeliverable FROM outbox WHERE target_id = ? AND undeliverable IS NOT NULL",
            (thread.id,),
        ).fetchall()

    rows = await harness.bot.services.db.read(refused)
    assert rows
    assert all(state == "failed" for state, _ in rows)
    assert await harness.bot.services.outbox.next_due_at() is None  # nothing retried forever


async def test_a_pillz_duel_where_the_bot_cannot_post_is_refused_privately(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    assert harness.games_channel is not None
    harness.emu.world.deny_bot(harness.games_channel, "send_messages")

    practice = private(
        await harness.emu.run_command(alice, "pillz entraînement", channel=harness.games_channel)
    )
    challenge = private(
        await harness.emu.run_command(alice, "pillz défi", {"joueur": bob}, channel=harness.games_channel)
    )

    assert "• Envoyer des messages" in practice
    assert "• Envoyer des messages" in challenge
    assert await count(harness, "SELECT COUNT(*) FROM matches") == 0


async def test_a_battle_shown_again_where_the_bot_cannot_embed_is_shown_privately(
    harness: BotHarness,
) -> None:
    """`/hoss combat` shows the battle to its player only (an interaction's private reply needs none of the
    channel's permissions): nothing is posted where the bot may not embed."""
    alice = harness.user("alice")
    await with_deck(harness, alice)
    assert harness.games_channel is not None
    assert harness.guild is not None
    await harness.emu.run_command(alice, "hoss rang", {"rang": 1}, channel=harness.games_channel)
    await harness.settle()
    elsewhere = harness.emu.add_channel(harness.guild, "accueil")
    harness.emu.world.deny_bot(elsewhere, "embed_links")

    shown_again = await harness.emu.run_command(alice, "hoss combat", channel=elsewhere)

    assert shown_again.message is not None
    assert shown_again.message.ephemeral
    assert "Combat classé n° 1" in shown_again.message.render()
    assert harness.emu.channel_messages(elsewhere) == []


async def test_a_battle_without_its_message_is_not_posted_where_the_bot_cannot_embed(
    harness: BotHarness,
) -> None:
    """A battle left without its public message gets one from `/hoss combat`: not where the bot may not
    embed, and the player is told which permission is missing."""
    alice = harness.user("alice")
    await with_deck(harness, alice)
    assert harness.guild is not None
    elsewhere = harness.emu.add_channel(harness.guild, "accueil")
    harness.emu.world.deny_bot(elsewhere, "embed_links")
    assert harness.bot is not None
    await harness.bot.services.games["hoss"].ranked.start(alice.id, 1, key="lost", guild=harness.guild.id)

    answer = private(await harness.emu.run_command(alice, "hoss combat", channel=elsewhere))

    assert "• Intégrer des liens" in answer
    assert harness.emu.channel_messages(elsewhere) == []
