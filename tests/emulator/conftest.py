"""A small but complete discord.py bot, run for real against the emulator in every test."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TypeVar

import discord
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from emulator import DiscordEmulator

CARDS = ["Dragon", "Drake", "Dryad", "Goblin", "Golem"]
FRENCH = {
    "profile": "profil",
    "Show a member's profile": "Afficher le profil d'un membre",
    "member": "membre",
    "The member to show": "Le membre à afficher",
}


class FrenchTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return FRENCH.get(string.message) if locale is discord.Locale.french else None


class VoteView(discord.ui.View):
    @discord.ui.button(label="Accept", style=discord.ButtonStyle.success, custom_id="vote:accept")
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button[VoteView]) -> None:
        await interaction.response.edit_message(content=f"accepted by {interaction.user.name}", view=None)

    @discord.ui.button(label="Later", custom_id="vote:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[VoteView]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="postponed")

    @discord.ui.button(label="Details", custom_id="vote:details")
    async def details(self, interaction: discord.Interaction, button: discord.ui.Button[VoteView]) -> None:
        await interaction.response.send_message("only you see this", ephemeral=True)

    @discord.ui.button(label="Rename", custom_id="vote:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button[VoteView]) -> None:
        await interaction.response.send_modal(RenameModal())


class RenameModal(discord.ui.Modal, title="Rename the vote"):
    new_name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(label="New name", custom_id="new_name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"vote renamed to {self.new_name.value}")


class LanguageSelect(discord.ui.Select["LanguageView"]):
    def __init__(self) -> None:
        options = [
            discord.SelectOption(label="English", value="en"),
            discord.SelectOption(label="Français", value="fr"),
        ]
        super().__init__(placeholder="Language", options=options, custom_id="language")

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"language set to {self.values[0]}", ephemeral=True)


class LanguageView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__()
        self.add_item(LanguageSelect())


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    subject: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Subject", custom_id="subject")
    body: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(
        label="Details", custom_id="details", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks for {self.subject.value!r} ({self.body.value!r})")


class EmulatedBot(commands.Bot):
    """Registers one command per emulator feature and records every error instead of logging it."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.01,
            help_command=None,
        )
        self.guild_id = guild_id
        self.failures: list[BaseException] = []
        self.dm_errors: list[discord.HTTPException] = []
        self.post_errors: list[discord.HTTPException] = []

    async def setup_hook(self) -> None:
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        await self.tree.set_translator(FrenchTranslator())
        add_commands(self, discord.Object(self.guild_id))
        await self.tree.sync(guild=discord.Object(self.guild_id))
        await self.tree.sync()

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.failures.append(error)

    async def on_error(self, event_method: str, /, *args: object, **kwargs: object) -> None:
        self.failures.append(sys.exc_info()[1] or RuntimeError(event_method))


def add_commands(bot: EmulatedBot, guild: discord.Object) -> None:
    """Every command the emulator's tests use, registered in one order (the synced tree's)."""
    add_option_commands(bot.tree, guild)
    add_message_commands(bot.tree, guild)
    add_channel_commands(bot, guild)


def add_option_commands(tree: app_commands.CommandTree[EmulatedBot], guild: discord.Object) -> None:
    """Options of each kind: text, integer, member, translated names, choices, autocomplete."""

    @tree.command(name="echo", description="Repeat a text", guild=guild)
    async def echo(
        interaction: discord.Interaction, text: str, times: int = 1, member: discord.Member | None = None
    ) -> None:
        target = f" for {member.name}" if member is not None else ""
        await interaction.response.send_message(
            f"{' '.join([text] * times)}{target} (locale {interaction.locale})"
        )

    @tree.command(
        name=app_commands.locale_str("profile"),
        description=app_commands.locale_str("Show a member's profile"),
        guild=guild,
    )
    @app_commands.rename(member=app_commands.locale_str("member"))
    @app_commands.describe(member=app_commands.locale_str("The member to show"))
    async def profile(interaction: discord.Interaction, member: discord.Member) -> None:
        embed = discord.Embed(title=member.name, description=f"joined {member.guild.name}")
        embed.add_field(name="id", value=str(member.id))
        await interaction.response.send_message(embed=embed)

    settings = app_commands.Group(name="settings", description="Your settings", guild_ids=[guild.id])

    @settings.command(name="language", description="Choose a language")
    @app_commands.choices(
        value=[
            app_commands.Choice(name="French", value="fr"),
            app_commands.Choice(name="English", value="en"),
        ]
    )
    async def language(interaction: discord.Interaction, value: app_commands.Choice[str]) -> None:
        await interaction.response.send_message(f"language: {value.value}", ephemeral=True)

    tree.add_command(settings)

    async def card_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=c, value=c.lower())
            for c in CARDS
            if c.lower().startswith(current.lower())
        ]

    @tree.command(name="card", description="Look at a card", guild=guild)
    @app_commands.autocomplete(name=card_names)
    async def card(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"card {name}")


def add_message_commands(tree: app_commands.CommandTree[EmulatedBot], guild: discord.Object) -> None:
    """Components, a modal and a deferred answer."""

    @tree.command(name="vote", description="Start a vote", guild=guild)
    async def vote(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Do you agree?", view=VoteView())

    @tree.command(name="language-menu", description="Pick a language from a menu", guild=guild)
    async def language_menu(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Pick one", view=LanguageView(), ephemeral=True)

    @tree.command(name="feedback", description="Send feedback", guild=guild)
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @tree.command(name="slow", description="A deferred command", guild=guild)
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("done after thinking")
        await interaction.followup.send("a second follow-up", ephemeral=True)


def add_channel_commands(bot: EmulatedBot, guild: discord.Object) -> None:
    """DMs, threads, posts, a command usable anywhere, one that never answers and a context menu."""
    tree = bot.tree

    @tree.command(name="hand", description="Receive your hand by DM", guild=guild)
    async def hand(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("your hand: A, K")
        except discord.Forbidden as exc:
            bot.dm_errors.append(exc)
            await interaction.response.send_message("I cannot DM you", ephemeral=True)
            return
        await interaction.response.send_message("check your DMs", ephemeral=True)

    @tree.command(name="table", description="Open a game thread", guild=guild)
    async def table(interaction: discord.Interaction, name: str) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await interaction.response.send_message(f"opening {name}")
        original = await interaction.original_response()
        thread = await original.create_thread(name=name)
        await thread.send("welcome to the table")
        side = await channel.create_thread(name=f"{name}-side", type=discord.ChannelType.public_thread)
        await side.send("side thread")

    @tree.command(name="ping", description="Check the bot is alive, anywhere")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def ping(interaction: discord.Interaction) -> None:
        where = "DM" if interaction.guild is None else interaction.guild.name
        await interaction.response.send_message(f"pong from {where}", view=VoteView())

    @tree.command(name="ignore", description="Never answers", guild=guild)
    async def ignore(interaction: discord.Interaction) -> None:
        pass

    @tree.context_menu(name="Inspect", guild=guild)
    async def inspect(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"inspecting {member.name}", ephemeral=True)

    @tree.command(name="announce", description="Post in the channel", guild=guild)
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            await channel.send(text)
        except discord.HTTPException as exc:
            bot.post_errors.append(exc)
            await interaction.followup.send("Discord is unavailable", ephemeral=True)
            return
        await interaction.followup.send("posted", ephemeral=True)


@pytest_asyncio.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    emulator = DiscordEmulator()
    guild = emulator.add_guild("Test Server", locale="fr")
    emulator.add_channel(guild, "games")
    emulator.add_user("alice", locale="fr")
    emulator.add_user("bob")
    emulator.add_user("carol", dms_closed=True)
    async with emulator:
        yield emulator


BotT = TypeVar("BotT", bound=EmulatedBot)


@asynccontextmanager
async def running(emu: DiscordEmulator, client: BotT) -> AsyncIterator[BotT]:
    """`client` connected to `emu` and ready, closed on the way out."""
    task = asyncio.create_task(client.start(emu.bot_token))
    try:
        await emu.wait_ready()
        yield client
    finally:
        await client.close()
        await task


@pytest_asyncio.fixture
async def bot(emu: DiscordEmulator) -> AsyncIterator[EmulatedBot]:
    async with running(emu, EmulatedBot(emu.guild("Test Server").id)) as client:
        yield client
    assert client.failures == []
