"""/setup: a server's channels and default turn deadline, for people who can manage the server."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.i18n import t
from discord_app.context import locale_of, services_of
from discord_app.translator import choice, desc
from services.guild_settings import GuildSettings


def require_manage_guild(interaction: discord.Interaction[Any]) -> None:
    """`default_permissions` only hides the command; server admins can re-grant it, so check at run time too."""
    if interaction.guild is None:
        raise app_commands.NoPrivateMessage()
    if not interaction.permissions.manage_guild:
        raise app_commands.MissingPermissions(["manage_guild"])


def summary(settings: GuildSettings, locale: str) -> str:
    unset = t("setup.unset", locale)
    return t(
        "setup.summary",
        locale,
        announce=f"<#{settings.announce_channel_id}>" if settings.announce_channel_id else unset,
        games=f"<#{settings.games_channel_id}>" if settings.games_channel_id else unset,
        preset=t(f"choice.deadline.{settings.deadline_preset}", locale),
    )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SetupCog(commands.GroupCog, group_name="setup", group_description=desc("cmd.setup.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def _update(
        self, interaction: discord.Interaction[Any], column: str, value: int | str | None
    ) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        settings = await services_of(interaction).guilds.update(interaction.guild_id, column, value)
        await interaction.response.send_message(
            t("setup.saved", locale) + "\n" + summary(settings, locale), ephemeral=True
        )

    @app_commands.command(name="announcements", description=desc("cmd.setup.announcements.description"))
    @app_commands.describe(channel=desc("cmd.setup.announcements.opt.channel.description"))
    async def announcements(
        self, interaction: discord.Interaction[Any], channel: discord.TextChannel
    ) -> None:
        await self._update(interaction, "announce_channel_id", channel.id)

    @app_commands.command(name="games-channel", description=desc("cmd.setup.games-channel.description"))
    @app_commands.describe(channel=desc("cmd.setup.games-channel.opt.channel.description"))
    async def games_channel(
        self, interaction: discord.Interaction[Any], channel: discord.TextChannel
    ) -> None:
        await self._update(interaction, "games_channel_id", channel.id)

    @app_commands.command(name="deadline", description=desc("cmd.setup.deadline.description"))
    @app_commands.describe(preset=desc("cmd.setup.deadline.opt.preset.description"))
    @app_commands.choices(
        preset=[choice("deadline", "fast"), choice("deadline", "standard"), choice("deadline", "relaxed")]
    )
    async def deadline(self, interaction: discord.Interaction[Any], preset: app_commands.Choice[str]) -> None:
        await self._update(interaction, "deadline_preset", preset.value)

    @app_commands.command(name="show", description=desc("cmd.setup.show.description"))
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        require_manage_guild(interaction)
        locale = await locale_of(interaction)
        assert interaction.guild_id is not None
        settings = await services_of(interaction).guilds.get(interaction.guild_id)
        await interaction.response.send_message(summary(settings, locale), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SetupCog(bot))
