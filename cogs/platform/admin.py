"""/admin: owner-only maintenance, such as publishing the commands to every server."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from core.errors import NotAllowed
from core.i18n import t
from discord_app.context import locale_of, services_of
from discord_app.translator import desc


@app_commands.default_permissions(administrator=True)
class AdminCog(commands.GroupCog, group_name="admin", group_description=desc("cmd.admin.description")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="sync", description=desc("cmd.admin.sync.description"))
    async def sync(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id not in services_of(interaction).settings.owner_ids:
            raise NotAllowed("error.owner_only")
        locale = await locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.tree.sync()
        await interaction.followup.send(t("admin.synced", locale, count=len(synced)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
